import { useMemo } from 'react';
import { sparklineOption } from './chartOptions';
import { EChart } from './EChart';

/** A 100x30 trend line next to a number in tables (reference frontend §3.7). */
export function Sparkline({
  time,
  values,
  unit,
  color,
  group,
}: {
  time: string[];
  values: (number | null)[];
  unit: string;
  color?: string;
  group?: string;
}) {
  const option = useMemo(() => sparklineOption(time, values, unit, color), [time, values, unit, color]);
  return <EChart option={option} width={100} height={30} group={group} testId="sparkline" />;
}
