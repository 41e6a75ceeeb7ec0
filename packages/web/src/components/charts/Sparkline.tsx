import { Tooltip } from '@mui/material';
import { memo, useMemo, useState } from 'react';
import { formatDateTime } from '../../lib/format/dateTime';
import { formatMetric } from '../../lib/format/number';
import { nearestIndex, sparklineGeometry, SPARK_HEIGHT, SPARK_WIDTH } from './sparklinePath';

/**
 * A 100x30 trend line next to a number in tables (reference frontend §3.7): a plain SVG path with a
 * light area and a base line, no chart engine (a page of groups draws dozens at once). Hovering
 * shows the bucket's time and value. `gapsAsZero`: a bucket without a value is drawn as 0.
 */
export const Sparkline = memo(function Sparkline({
  time,
  values,
  unit,
  color = '#42A5F5',
  gapsAsZero,
}: {
  time: string[];
  values: (number | null)[];
  unit: string;
  color?: string;
  gapsAsZero?: boolean;
}) {
  const g = useMemo(() => sparklineGeometry(values, { gapsAsZero }), [values, gapsAsZero]);
  const [at, setAt] = useState<number | null>(null);
  const value = at === null ? undefined : (values[at] ?? (gapsAsZero ? 0 : null));
  const title =
    at === null || time[at] === undefined ? '' : `${formatDateTime(new Date(time[at]))}: ${formatMetric(value, unit)}`;
  return (
    <Tooltip title={title} followCursor disableInteractive>
      <svg
        width={SPARK_WIDTH}
        height={SPARK_HEIGHT}
        viewBox={`0 0 ${SPARK_WIDTH} ${SPARK_HEIGHT}`}
        style={{ display: 'block', flexShrink: 0 }}
        data-testid="sparkline"
        data-drawn="true"
        onMouseMove={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          setAt(nearestIndex(g.xs, ((e.clientX - box.left) / box.width) * SPARK_WIDTH));
        }}
        onMouseLeave={() => setAt(null)}
      >
        <line x1={0} x2={SPARK_WIDTH} y1={SPARK_HEIGHT - 0.5} y2={SPARK_HEIGHT - 0.5} stroke="#E0E0E0" />
        {g.area && <path d={g.area} fill={color} fillOpacity={0.15} stroke="none" />}
        {g.line && <path d={g.line} fill="none" stroke={color} strokeWidth={1} data-testid="sparkline-line" />}
        {g.dots.map(([x, y]) => (
          <circle key={x} cx={x} cy={y} r={1.5} fill={color} data-testid="sparkline-dot" />
        ))}
        {at !== null && g.xs[at] !== undefined && (
          <line x1={g.xs[at]} x2={g.xs[at]} y1={0} y2={SPARK_HEIGHT} stroke="#9E9E9E" strokeWidth={0.5} />
        )}
      </svg>
    </Tooltip>
  );
});
