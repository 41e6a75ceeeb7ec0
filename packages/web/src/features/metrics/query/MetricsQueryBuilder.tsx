import EditIcon from '@mui/icons-material/Edit';
import FilterListIcon from '@mui/icons-material/FilterList';
import { Box, Button, Chip, ListSubheader, Menu, MenuItem, Stack, TextField, Tooltip, Typography } from '@mui/material';
import { AGGREGATIONS_BY_INSTRUMENT, type MetricAlias, type MetricQueryPart } from '@lantern/shared';
import { useMemo, useState } from 'react';
import type { z } from 'zod';
import { FacetDrawer, type FacetSource } from '../../../components/FacetDrawer';
import { usePinFacet } from '../../../lib/api/pinnedFacets';
import { selectedValuesOf, withValuesOf } from '../../../lib/query/facetFilter';
import { useMetricAttrKeys, useMetricAttrValues, useMetricsList } from '../metricsApi';
import { addPart, aggregationPart, groupByKeys, joinParts, queryParts, removePart, toggleGroupBy } from './queryEdit';
import { QueryHelpButton } from './QueryHelpButton';
import { WhereDialog } from './WhereDialog';

export interface MetricsQueryBuilderProps {
  projectId: number;
  /** The chosen metrics; aggregations, group by and where are offered over their aliases and attributes. */
  metrics: MetricAlias[];
  query: string;
  onChange: (query: string) => void;
  /** API time params of the range the attribute suggestions come from. */
  range: { time_gte: string; time_lt: string };
  /** The server's per-part answer for this query (error text under each chip). */
  parts?: z.infer<typeof MetricQueryPart>[];
  disabled?: boolean;
  /**
   * `dashboard`: the grid's query, joined to every panel's (reference frontend §1.3.13
   * DashQueryBuilder): it narrows and groups, so there is no Aggregate (an aggregation here would be
   * added to every panel, and fail on each panel without that alias) and nothing to add is not "no query".
   */
  scope?: 'panel' | 'dashboard';
}

/** The Filters drawer over metrics: keys the chosen metrics share, values with their timeseries counts. */
function useMetricFacets(
  p: Pick<MetricsQueryBuilderProps, 'projectId' | 'metrics' | 'range' | 'query' | 'onChange'>,
  open: boolean,
): FacetSource {
  const metric = p.metrics.map((m) => m.name);
  const pin = usePinFacet();
  return {
    keys: useMetricAttrKeys(p.projectId, { ...p.range, metric }, open && metric.length > 0),
    useValues: (attr, enabled) => useMetricAttrValues(p.projectId, { ...p.range, metric, attr_key: attr }, enabled),
    selected: (attr) => selectedValuesOf(queryParts(p.query), attr),
    select: (attr, values) => p.onChange(joinParts(withValuesOf(queryParts(p.query), attr, values))),
    pin: (attr, pinned) => pin.mutate({ attr, pinned }),
  };
}

/**
 * A metrics query as chips, one per `|` part, with the server's error under each; menus add an
 * aggregation per metric (by its instrument), a group by over the metrics' attributes, and a where
 * filter (a dialog with every operator, or the Filters drawer of values with counts); Edit switches
 * to the raw text (Enter applies, Escape cancels).
 */
export function MetricsQueryBuilder({
  projectId,
  metrics,
  query,
  onChange,
  range,
  parts,
  disabled,
  scope = 'panel',
}: MetricsQueryBuilderProps) {
  const list = useMetricsList(projectId);
  const [facets, setFacets] = useState(false);
  const facetSource = useMetricFacets({ projectId, metrics, range, query, onChange }, facets);
  const [menu, setMenu] = useState<{ kind: 'agg' | 'group'; anchor: HTMLElement } | null>(null);
  const [where, setWhere] = useState(false);
  const [raw, setRaw] = useState<string | null>(null);
  const info = useMemo(() => new Map((list.data?.metrics ?? []).map((m) => [m.name, m])), [list.data]);
  const attrKeys = useMemo(
    () => [...new Set(metrics.flatMap((m) => info.get(m.name)?.attrKeys ?? []))].sort(),
    [metrics, info],
  );
  const grouped = groupByKeys(query);
  const chips = queryParts(query);
  const errorOf = (text: string, i: number) =>
    parts?.find((p, j) => j === i && p.query.trim() === text)?.error ??
    parts?.find((p) => p.query.trim() === text)?.error ??
    '';

  if (raw !== null) {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }} data-testid="query-builder">
        <TextField
          size="small"
          fullWidth
          autoFocus
          label="Query"
          value={raw}
          onChange={(e) => setRaw(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onChange(raw.trim());
              setRaw(null);
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              setRaw(null);
            }
          }}
          helperText={`Enter applies, Escape cancels. Parts are separated by |, e.g. ${scope === 'dashboard' ? '' : 'p90($lat) | '}where service.name = api | group by host.name`}
          slotProps={{ htmlInput: { 'data-testid': 'query-raw' } }}
        />
        <Button onClick={() => (onChange(raw.trim()), setRaw(null))} data-testid="query-raw-apply">
          Apply
        </Button>
        <Button onClick={() => setRaw(null)}>Cancel</Button>
      </Stack>
    );
  }

  return (
    <Box data-testid="query-builder">
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'flex-start', mb: 1 }}>
        {chips.map((text, i) => {
          const error = errorOf(text, i);
          return (
            <Box
              key={`${i}:${text}`}
              data-testid="query-part"
              data-error={error || undefined}
              sx={{ maxWidth: '100%' }}
            >
              <Chip
                label={text}
                size="small"
                color={error ? 'error' : 'default'}
                variant="outlined"
                onDelete={disabled ? undefined : () => onChange(removePart(query, i))}
                // A long part wraps inside the form instead of running past its edge.
                sx={{
                  fontFamily: 'ui-monospace, monospace',
                  maxWidth: '100%',
                  height: 'auto',
                  minHeight: 24,
                  '& .MuiChip-label': { whiteSpace: 'normal', overflowWrap: 'anywhere', py: 0.25 },
                }}
              />
              {error && (
                <Typography
                  variant="caption"
                  color="error"
                  component="div"
                  sx={{ maxWidth: 360 }}
                  data-testid="query-part-error"
                >
                  {error}
                </Typography>
              )}
            </Box>
          );
        })}
        {chips.length === 0 && (
          <Typography variant="body2" color="text.secondary" sx={{ py: 0.25 }}>
            {scope === 'dashboard'
              ? 'No dashboard filter: a where or group by added here applies to every panel'
              : metrics.length
                ? 'No query yet: add an aggregation'
                : 'Select a metric first'}
          </Typography>
        )}
      </Stack>
      {/* A narrow form (the monitor's, 520 px) moves the last buttons to a second line; a label
          never breaks inside its button ("GROUP / BY"). */}
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap', '& > *': { flexShrink: 0 }, '& .MuiButton-root': { whiteSpace: 'nowrap' } }}
      >
        {scope === 'panel' && (
          <Button
            size="small"
            variant="outlined"
            disabled={disabled || !metrics.length}
            onClick={(e) => setMenu({ kind: 'agg', anchor: e.currentTarget })}
            data-testid="add-aggregation"
          >
            Aggregate
          </Button>
        )}
        <Button
          size="small"
          variant="outlined"
          disabled={disabled || !attrKeys.length}
          onClick={(e) => setMenu({ kind: 'group', anchor: e.currentTarget })}
          data-testid="add-group-by"
        >
          Group by
        </Button>
        <Button
          size="small"
          variant="outlined"
          disabled={disabled || !attrKeys.length}
          onClick={() => setWhere(true)}
          data-testid="add-where"
        >
          Where
        </Button>
        <Button
          size="small"
          variant="outlined"
          startIcon={<FilterListIcon />}
          disabled={disabled || !metrics.length}
          onClick={() => setFacets(true)}
          data-testid="query-filters"
        >
          Filters
        </Button>
        <Tooltip title="Edit the query as text">
          <span>
            <Button
              size="small"
              startIcon={<EditIcon />}
              disabled={disabled}
              onClick={() => setRaw(query)}
              data-testid="query-edit"
            >
              Edit
            </Button>
          </span>
        </Tooltip>
        <QueryHelpButton />
      </Stack>
      <Menu
        open={menu !== null}
        anchorEl={menu?.anchor}
        onClose={() => setMenu(null)}
        slotProps={{ paper: { sx: { maxHeight: 420 } } }}
      >
        {menu?.kind === 'agg' &&
          metrics.flatMap((m) => {
            const instrument = info.get(m.name)?.instrument;
            const fns = instrument && instrument !== 'deleted' ? AGGREGATIONS_BY_INSTRUMENT[instrument] : [];
            return [
              <ListSubheader key={`h-${m.alias}`}>
                ${m.alias} · {instrument ?? 'unknown'}
              </ListSubheader>,
              ...fns.map((fn) => (
                <MenuItem
                  key={`${m.alias}-${fn}`}
                  onClick={() => {
                    onChange(addPart(query, aggregationPart(fn, m.alias)));
                    setMenu(null);
                  }}
                  sx={{ fontFamily: 'ui-monospace, monospace', fontSize: 13 }}
                >
                  {aggregationPart(fn, m.alias)}
                </MenuItem>
              )),
            ];
          })}
        {menu?.kind === 'group' &&
          attrKeys.map((k) => (
            <MenuItem
              key={k}
              selected={grouped.includes(k)}
              onClick={() => (onChange(toggleGroupBy(query, k)), setMenu(null))}
              data-testid="group-by-key"
            >
              {k}
            </MenuItem>
          ))}
      </Menu>
      <FacetDrawer open={facets} onClose={() => setFacets(false)} source={facetSource} />
      {where && (
        <WhereDialog
          projectId={projectId}
          metrics={metrics}
          attrKeys={attrKeys}
          range={range}
          onAdd={(p) => onChange(addPart(query, p))}
          onClose={() => setWhere(false)}
        />
      )}
    </Box>
  );
}
