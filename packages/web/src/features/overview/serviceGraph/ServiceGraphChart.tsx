import { formatDuration, formatNum, type ServiceGraphEdge, type ServiceGraphNode } from '@lantern/shared';
import type { ECharts } from 'echarts/core';
import { useEffect, useMemo, useRef } from 'react';
import { errorColor, layoutGraph } from './serviceGraphModel';

export type GraphSelection = { node: string } | { client: string; server: string };

/** A virtual node's shape: what it is at a glance (services are circles). */
const SYMBOLS: Record<ServiceGraphNode['type'], string> = {
  service: 'circle',
  database: 'roundRect',
  messaging: 'diamond',
  external: 'rect',
};

const perMin = (calls: number, minutes: number) => formatNum(calls / Math.max(1, minutes));

/**
 * The service graph drawn by ECharts' graph series at fixed positions (callers left of callees,
 * serviceGraphModel.layoutGraph); pan and zoom with the mouse (roam). Virtual nodes have a dashed
 * outline and a shape of their type; colour is the error rate. `highlight` dims every node but the
 * ones whose name contains it; a click on a node or an edge reports it through `onSelect`.
 */
export function ServiceGraphChart({
  nodes,
  edges,
  minutes,
  highlight,
  onSelect,
}: {
  nodes: ServiceGraphNode[];
  edges: ServiceGraphEdge[];
  minutes: number;
  highlight: string;
  onSelect: (s: GraphSelection) => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const chartRef = useRef<ECharts | null>(null);
  const selectRef = useRef(onSelect);
  useEffect(() => {
    selectRef.current = onSelect;
  }, [onSelect]);

  const option = useMemo(() => {
    const placed = new Map(layoutGraph(nodes, edges).map((p) => [p.name, p]));
    const needle = highlight.trim().toLowerCase();
    const lit = (name: string) => !needle || name.toLowerCase().includes(needle);
    return {
      animation: false,
      tooltip: { confine: true },
      series: [
        {
          type: 'graph',
          layout: 'none',
          roam: true,
          edgeSymbol: ['none', 'arrow'],
          edgeSymbolSize: 8,
          label: { show: true, position: 'bottom', fontSize: 12 },
          emphasis: { focus: 'adjacency' },
          data: nodes.map((n) => {
            const p = placed.get(n.name)!;
            const matched = needle !== '' && lit(n.name);
            return {
              name: n.name,
              x: p.x,
              y: p.y,
              symbol: SYMBOLS[n.type],
              symbolSize: matched ? 34 : 26,
              itemStyle: {
                color: n.virtual ? '#FFFFFF' : errorColor(n),
                borderColor: n.virtual ? errorColor(n) : matched ? '#1565C0' : '#FFFFFF',
                borderWidth: n.virtual || matched ? 3 : 1,
                borderType: n.virtual ? 'dashed' : 'solid',
                opacity: lit(n.name) ? 1 : 0.25,
              },
              label: { fontWeight: matched ? 'bold' : 'normal', opacity: lit(n.name) ? 1 : 0.4 },
              tooltip: {
                formatter: [
                  `<b>${escapeHtml(n.name)}</b>${n.virtual ? ` (virtual ${n.type})` : ''}`,
                  n.calls
                    ? `${perMin(n.calls, minutes)} req/min, ${formatNum((n.errors / n.calls) * 100)} % errors`
                    : 'no calls served',
                  n.p50 !== null ? `p50 ${formatDuration(n.p50)}, p99 ${formatDuration(n.p99 ?? n.p50)}` : '',
                ]
                  .filter(Boolean)
                  .join('<br/>'),
              },
            };
          }),
          links: edges.map((e) => ({
            source: e.client,
            target: e.server,
            lineStyle: {
              color: errorColor(e),
              width: 1 + Math.min(4, Math.log10(1 + e.calls / Math.max(1, minutes))),
              curveness: 0.15,
              opacity: lit(e.client) || lit(e.server) ? 0.9 : 0.15,
            },
            tooltip: {
              formatter: [
                `<b>${escapeHtml(e.client)} → ${escapeHtml(e.server)}</b> (${e.connectionType})`,
                `${perMin(e.calls, minutes)} calls/min, ${e.calls ? formatNum((e.errors / e.calls) * 100) : 0} % errors`,
                e.p50 !== null ? `p50 ${formatDuration(e.p50)}, p99 ${formatDuration(e.p99 ?? e.p50)}` : '',
              ]
                .filter(Boolean)
                .join('<br/>'),
            },
          })),
        },
      ],
    };
  }, [nodes, edges, minutes, highlight]);

  useEffect(() => {
    const el = ref.current!;
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void import('./echartsGraph').then(({ echarts }) => {
      if (disposed) return;
      const chart = echarts.init(el);
      chartRef.current = chart;
      chart.on('finished', () => el.setAttribute('data-drawn', 'true'));
      chart.on('click', (p: { dataType?: string; name?: string; data?: unknown }) => {
        if (p.dataType === 'node' && p.name) selectRef.current({ node: p.name });
        if (p.dataType === 'edge') {
          const d = p.data as { source: string; target: string };
          selectRef.current({ client: d.source, server: d.target });
        }
      });
      observer = new ResizeObserver(() => chart.resize());
      observer.observe(el);
      chart.setOption(option, { notMerge: true });
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chartRef.current?.dispose();
      chartRef.current = null;
    };
    // The chart is made once; the option is applied by the effect below (and here, the first time).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only the first option is needed here
  }, []);

  useEffect(() => {
    chartRef.current?.setOption(option, { notMerge: true });
  }, [option]);

  return <div ref={ref} style={{ width: '100%', height: 520 }} data-testid="service-graph-chart" />;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
