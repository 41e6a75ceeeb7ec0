import WarningIcon from '@mui/icons-material/Warning';
import { Alert, Box, Card, Chip, LinearProgress, MenuItem, Select, Stack, Typography } from '@mui/material';
import { type GroupsResponse, toText } from '@lantern/shared';
import { useMemo, useState } from 'react';
import { CodeBlock } from '../../../components/CodeBlock';
import { ApiError } from '../../../lib/api/apiClient';
import { listCountText } from '../../../lib/format/countText';
import { headerLabel, plottableColumns } from './groupColumns';
import { GroupsTable, NoGroups, type GroupOrder } from './GroupsTable';
import type { RangeQuery } from '../tracingApi';

/** Spec §8: the invalid_query banner with the backend's query text. */
export function InvalidQuery({ error }: { error: ApiError }) {
  const body = error.body as { query?: string } | undefined;
  return (
    <Alert severity="error" icon={<WarningIcon />} data-testid="invalid-query">
      <Typography>{error.message}</Typography>
      <Typography variant="body2" sx={{ my: 1 }}>
        This is a bug. Please report it on GitHub including the error message and the query.
      </Typography>
      {body?.query && <CodeBlock code={body.query} />}
    </Alert>
  );
}

const typeOf = (s: string) => (s.includes(':') ? s.slice(0, s.indexOf(':')) : s);

/**
 * The groups card (Groups tab and Overview lists): 'Groups' with its count (countText.ts), the system
 * chip bar when groups span several systems, the plotted-columns selector and the table.
 */
export function GroupsCard({
  title,
  projectId,
  range,
  systems,
  result,
  loading,
  error,
  plotted,
  onPlotted,
  order,
  onOrder,
  showSystem,
  action,
}: {
  title: string;
  projectId: number;
  range: RangeQuery;
  systems: string[];
  result: GroupsResponse | undefined;
  loading: boolean;
  error: Error | null;
  plotted: string[];
  onPlotted?: (c: string[]) => void;
  order: GroupOrder;
  onOrder: (o: GroupOrder) => void;
  showSystem?: boolean;
  action?: React.ReactNode;
}) {
  const groups = useMemo(() => result?.groups ?? [], [result]);
  const plottable = plottableColumns(result?.columns ?? []);
  const effectivePlotted = plotted.length ? plotted : plottable.slice(0, 1).map((c) => c.name);
  const systemValues = useMemo(
    () => groups.map((g) => (typeof g['.system'] === 'string' ? g['.system'] : '')).filter(Boolean),
    [groups],
  );
  const distinct = [...new Set(systemValues)];
  const coarse = distinct.length > 5;
  const chips = [...new Set(systemValues.map((s) => (coarse ? typeOf(s) : s)))].sort();
  const [chipFilter, setChipFilter] = useState<string[]>([]);
  // Other chips: the filter starts over (while rendering, so no frame shows a filter that matches nothing).
  const chipsKey = chips.join(',');
  const [filteredChips, setFilteredChips] = useState(chipsKey);
  if (filteredChips !== chipsKey) {
    setFilteredChips(chipsKey);
    setChipFilter([]);
  }
  const shown = chipFilter.length
    ? groups.filter((g) => chipFilter.some((c) => toText(g['.system']).startsWith(c)))
    : groups;

  if (error instanceof ApiError && error.code === 'invalid_query') return <InvalidQuery error={error} />;
  return (
    <Card variant="outlined" data-testid="groups-card">
      <Stack direction="row" sx={{ alignItems: 'center', bgcolor: '#E1F5FE', px: 2, minHeight: 48 }} spacing={2}>
        <Typography variant="h6" sx={{ fontSize: '1.1rem' }}>
          {title}
        </Typography>
        {action}
        <Box sx={{ flexGrow: 1 }} />
        {result && (
          <Typography variant="body2" data-testid="groups-count">
            {listCountText({ shown: shown.length, total: groups.length, capped: result.hasMore }, 'group')}
          </Typography>
        )}
      </Stack>
      {loading && <LinearProgress sx={{ height: 2 }} />}
      {error && !(error instanceof ApiError && error.code === 'invalid_query') && (
        <Alert severity="error">{error.message}</Alert>
      )}
      <Stack direction="row" sx={{ alignItems: 'center', px: 2, pt: 1, gap: 1, flexWrap: 'wrap' }}>
        {chips.length > 1 &&
          chips.map((c) => (
            <Chip
              key={c}
              size="small"
              label={`${c} (${systemValues.filter((s) => s.startsWith(c)).length})`}
              color={chipFilter.includes(c) ? 'info' : 'default'}
              onClick={() =>
                setChipFilter(chipFilter.includes(c) ? chipFilter.filter((x) => x !== c) : [...chipFilter, c])
              }
              data-testid="system-chip"
            />
          ))}
        <Box sx={{ flexGrow: 1 }} />
        {onPlotted && plottable.length > 0 && (
          <Select
            multiple
            size="small"
            value={effectivePlotted}
            onChange={(e) => onPlotted(typeof e.target.value === 'string' ? [e.target.value] : e.target.value)}
            renderValue={(v) => `Plot: ${v.map(headerLabel).join(', ')}`}
            sx={{ minWidth: 200, bgcolor: '#F5F5F5' }}
            data-testid="plotted-columns"
          >
            {plottable.map((c) => (
              <MenuItem key={c.name} value={c.name}>
                {c.name}
              </MenuItem>
            ))}
          </Select>
        )}
      </Stack>
      {result && shown.length === 0 && !loading ? (
        <NoGroups projectId={projectId} />
      ) : result ? (
        <GroupsTable
          projectId={projectId}
          range={range}
          systems={systems}
          groups={shown}
          columns={result.columns}
          plotted={effectivePlotted}
          order={order}
          onOrder={onOrder}
          showSystem={showSystem}
          stats={result.stats}
        />
      ) : null}
    </Card>
  );
}
