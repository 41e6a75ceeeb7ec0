import { Chip, Stack, Typography } from '@mui/material';
import type { MetricAlias } from '@lantern/shared';
import { useMemo } from 'react';
import { useMetricsList } from '../../metricsApi';
import { groupByKeys, toggleGroupBy } from '../../query/queryEdit';

/**
 * The table's grouping toggle (spec Dashboard page, Table tab): a chip per attribute of the table's
 * metrics; a click adds the attribute to the query's group by or takes it out. Changes made while
 * the table loads are ignored by the caller (spec §4).
 */
export function GroupingToggle({
  projectId,
  metrics,
  query,
  onChange,
}: {
  projectId: number;
  metrics: MetricAlias[];
  query: string;
  onChange: (query: string) => void;
}) {
  const list = useMetricsList(projectId);
  const keys = useMemo(() => {
    const byName = new Map((list.data?.metrics ?? []).map((m) => [m.name, m]));
    return [...new Set(metrics.flatMap((m) => byName.get(m.name)?.attrKeys ?? []))].sort();
  }, [list.data, metrics]);
  const grouped = groupByKeys(query);
  if (!keys.length) return null;
  return (
    <Stack
      direction="row"
      spacing={0.5}
      useFlexGap
      sx={{ flexWrap: 'wrap', alignItems: 'center', mt: 1 }}
      data-testid="grouping-toggle"
    >
      <Typography variant="caption" color="text.secondary" sx={{ mr: 0.5 }}>
        Group by
      </Typography>
      {keys.map((k) => (
        <Chip
          key={k}
          size="small"
          label={k}
          color={grouped.includes(k) ? 'primary' : 'default'}
          variant={grouped.includes(k) ? 'filled' : 'outlined'}
          onClick={() => onChange(toggleGroupBy(query, k))}
          data-testid="grouping-key"
          data-active={grouped.includes(k) || undefined}
        />
      ))}
    </Stack>
  );
}
