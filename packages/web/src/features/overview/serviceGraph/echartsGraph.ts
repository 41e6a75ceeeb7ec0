import { GraphChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

/** The graph series, in a chunk of its own: only the service graph draws one. */
echarts.use([GraphChart, TooltipComponent, CanvasRenderer]);

export { echarts };
