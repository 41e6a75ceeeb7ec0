import type { ECharts } from 'echarts/core';
import { useEffect, useRef, useState } from 'react';

type EchartsModule = typeof import('./echartsCore');
let loading: Promise<EchartsModule> | undefined;
/** ECharts (~200 kB gzip) loads with the first chart, so pages paint their numbers before their charts. */
const loadEcharts = () => (loading ??= import('./echartsCore'));

/** Starts loading ECharts ahead of the first chart (pages about to show charts). */
export function preloadCharts(): void {
  void loadEcharts();
}

/**
 * Thin ECharts wrapper (reference frontend §3.1): the option is replaced whole (notMerge), the chart
 * follows its container's size, charts with the same `group` share their crosshair, `highlight`
 * emphasises one series by name (the others fade), `onChart` is handed the instance after each
 * option (to listen to its events; what it returns runs before the next), and the instance is
 * disposed on unmount.
 */
export function EChart({
  option,
  height,
  width = '100%',
  group,
  loading: busy,
  highlight,
  onChart,
  testId,
}: {
  option: Record<string, unknown>;
  height: number | string;
  width?: number | string;
  group?: string;
  loading?: boolean;
  highlight?: string;
  onChart?: (chart: ECharts) => (() => void) | void;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<ECharts | null>(null);
  const libRef = useRef<EchartsModule['echarts'] | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    const el = ref.current!;
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void loadEcharts().then(({ echarts }) => {
      if (disposed) return;
      libRef.current = echarts;
      const chart = echarts.init(el);
      chartRef.current = chart;
      // `data-drawn` once the chart has drawn its option (benches and tests wait for it).
      chart.on('finished', () => el.setAttribute('data-drawn', 'true'));
      // A resize redraws the whole chart: only when the size really changed (the observer also
      // reports the size it starts with).
      let size = `${el.clientWidth}x${el.clientHeight}`;
      observer = new ResizeObserver(() => {
        const next = `${el.clientWidth}x${el.clientHeight}`;
        if (next === size) return;
        size = next;
        chart.resize();
      });
      observer.observe(el);
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chartRef.current?.dispose();
      chartRef.current = null;
    };
  }, []);

  useEffect(() => {
    if (!chartRef.current) return;
    ref.current!.removeAttribute('data-drawn');
    // Applied at once, not on the next frame (lazyUpdate): the highlight effect below may dispatch
    // right after it, and an action on an option still waiting for its frame throws inside ECharts
    // (a legend row hovered as the chart became ready, or as the 'now' range moved, broke the page).
    chartRef.current.setOption(option, { notMerge: true, silent: true });
  }, [option, ready]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || !group || !libRef.current) return;
    chart.group = group;
    libRef.current.connect(group);
  }, [group, ready]);

  // After the option too: a new option (notMerge) starts with nothing emphasised.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || highlight === undefined) return;
    chart.dispatchAction({ type: 'highlight', seriesName: highlight });
    return () => {
      if (!chart.isDisposed()) chart.dispatchAction({ type: 'downplay', seriesName: highlight });
    };
  }, [highlight, option, ready]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || !onChart) return;
    const undo = onChart(chart);
    return () => {
      if (!chart.isDisposed()) undo?.();
    };
  }, [onChart, option, ready]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    if (busy) chart.showLoading('default', { text: '' });
    else chart.hideLoading();
  }, [busy, ready]);

  return <div ref={ref} style={{ width, height }} data-testid={testId ?? 'echart'} data-ready={ready || undefined} />;
}
