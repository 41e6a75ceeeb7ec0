import type { ColumnMap, GaugeLook, GaugeThreshold, MetricColumn } from '@lantern/shared';
import { formatUnit } from '../../../../lib/format/number';
import { columnUnit } from '../grid/units';
import { formatGauge, gaugeColor } from './gaugeFormat';

/**
 * A gauge's look (issue 41, Grafana's thresholds): the number it is judged by, the colour the
 * thresholds give it, and the dial's ECharts option.
 */

/** The number a stat or dial shows: the first value column's, when it is a finite number. */
export function gaugeNumber(columns: MetricColumn[], values: Record<string, unknown>): number | null {
  const first = columns.find((c) => !c.isGroup);
  const v = first ? values[first.name] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** The unit of the first value column (the dial's scale). */
export function gaugeUnit(columns: MetricColumn[], columnMap: ColumnMap): string {
  const first = columns.find((c) => !c.isGroup);
  return first ? columnUnit(columnMap, first) : '';
}

/** The colour of the highest step `value` reaches (Grafana: a step counts from its value up); `base` below them all. */
export function thresholdColor(value: number | null, thresholds: readonly GaugeThreshold[], base: string): string {
  let color = base;
  if (value === null) return color;
  for (const t of thresholds) if (value >= t.value) color = t.color;
  return color;
}

/**
 * The dial's colour bands as ECharts' axisLine wants them: [end fraction, colour] from `min` to
 * `max`, each band the colour of the step it starts at (`base` before the first step).
 */
export function dialBands(look: Pick<GaugeLook, 'min' | 'max' | 'thresholds'>, base: string): [number, string][] {
  const span = look.max - look.min;
  const bands: [number, string][] = [];
  let color = base;
  for (const t of look.thresholds) {
    const at = (t.value - look.min) / span;
    if (at >= 1) break;
    if (at > 0) bands.push([at, color]);
    color = t.color;
  }
  bands.push([1, color]);
  return bands;
}

/** The ECharts option of a dial: bands from the thresholds, a needle at the value (kept on the dial). */
export function dialOption(
  look: Pick<GaugeLook, 'min' | 'max' | 'thresholds'>,
  value: number | null,
  unit: string,
  base: string,
): Record<string, unknown> {
  const clamped = value === null ? null : Math.min(look.max, Math.max(look.min, value));
  return {
    animation: false,
    series: [
      {
        type: 'gauge',
        min: look.min,
        max: look.max,
        radius: '95%',
        center: ['50%', '60%'],
        startAngle: 210,
        endAngle: -30,
        axisLine: { lineStyle: { width: 10, color: dialBands(look, base) } },
        pointer: { show: clamped !== null, length: '65%', width: 4, itemStyle: { color: 'auto' } },
        axisTick: { show: false },
        splitNumber: 4,
        splitLine: { length: 6, distance: 0, lineStyle: { width: 1, color: '#999' } },
        axisLabel: { distance: 14, fontSize: 9, color: '#888', formatter: (v: number) => formatUnit(v, unit) },
        detail: { show: false },
        title: { show: false },
        data: clamped === null ? [] : [{ value: clamped }],
      },
    ],
  };
}

/** What a gauge's face shows for an answer (undefined while loading): its text, number, unit and colours. */
export function gaugeFace(
  g: { template: string; columnMap: ColumnMap; thresholds: readonly GaugeThreshold[] },
  answer: { columns: MetricColumn[]; values: Record<string, unknown> } | undefined,
) {
  const base = gaugeColor(g.columnMap);
  const value = answer ? gaugeNumber(answer.columns, answer.values) : null;
  return {
    text: answer ? formatGauge(g.template, answer.columns, answer.values, g.columnMap) : undefined,
    value,
    unit: answer ? gaugeUnit(answer.columns, g.columnMap) : '',
    base,
    color: thresholdColor(value, g.thresholds, base),
  };
}
