import { BarChart, LineChart } from 'echarts/charts';
import { DatasetComponent, GridComponent, LegendComponent, MarkAreaComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, DatasetComponent, MarkAreaComponent, CanvasRenderer]);

/**
 * Thin ECharts wrapper (reference frontend §3.1): the option is replaced whole (notMerge), the chart
 * follows its container's size, charts with the same `group` share their crosshair, and the
 * instance is disposed on unmount. Only the chart kinds we draw are bundled.
 */
export function EChart({
  option,
  height,
  width = '100%',
  group,
  loading,
  testId,
  onReady,
}: {
  option: Record<string, unknown>;
  height: number;
  width?: number | string;
  group?: string;
  loading?: boolean;
  testId?: string;
  onReady?: (chart: echarts.ECharts) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const el = ref.current!;
    const chart = echarts.init(el);
    chartRef.current = chart;
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.setOption(option, { notMerge: true, lazyUpdate: true, silent: true });
    onReady?.(chart);
  }, [option, onReady]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || !group) return;
    chart.group = group;
    echarts.connect(group);
  }, [group]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    if (loading) chart.showLoading('default', { text: '' });
    else chart.hideLoading();
  }, [loading]);

  return <div ref={ref} style={{ width, height }} data-testid={testId ?? 'echart'} />;
}
