import { BarChart, GaugeChart, HeatmapChart, LineChart } from 'echarts/charts';
import {
  BrushComponent,
  DatasetComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/** Only the chart kinds we draw are bundled; this module is its own chunk, loaded by the first chart. */
echarts.use([
  LineChart,
  BarChart,
  HeatmapChart,
  GaugeChart,
  VisualMapComponent,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DatasetComponent,
  MarkAreaComponent,
  BrushComponent,
  CanvasRenderer,
]);

export { echarts };
