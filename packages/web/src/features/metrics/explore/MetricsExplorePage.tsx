import type { Metric, MetricAlias } from '@lantern/shared';
import {
  Alert,
  Box,
  LinearProgress,
  Paper,
  Skeleton,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useCallback, useMemo, useState } from 'react';
import { DateRangePicker } from '../../../components/date/DateRangePicker';
import { useDateRange } from '../../../components/date/useDateRange';
import { PageToolbar } from '../../../components/PageToolbar';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { useAddressState } from '../../../lib/url/useAddressState';
import { useMetricAttrKeys, useMetricsStats } from '../metricsApi';
import { suggestAlias } from '../query/queryEdit';
import { AttrKeyList } from './AttrKeyList';
import { defaultQuery } from '../query/queryEdit';
import { filterByName, metricsCount, metricsFromParams, metricsToParams } from './exploreState';
import { ExploreMetricDialog } from './ExploreMetricDialog';
import { MetricSearchField } from './MetricSearchField';
import { MetricsTable } from './MetricsTable';
import { usePageTitle } from '../../../components/shell/usePageTitle';
import { PromqlPanel } from '../promql/PromqlPanel';

/** The dialog's range is limited to 90 days (spec tracing §Metrics explore); the page shares it. */
const MAX_DAYS = 90;

/**
 * Metrics explore (`/metrics/:projectId/explore`): attribute keys on the side filter the metrics
 * seen in the range, and a quick search over their names narrows them; a row opens 'Explore
 * metric'. Everything is in the address: `search`, `attr_key` (checked keys), `metric` / `alias`
 * (the dialog's metrics) and `query`.
 */
export function MetricsExplorePage() {
  const projectId = useProjectIdParam() ?? 0;
  const dateRange = useDateRange({ maxDays: MAX_DAYS });
  const address = useAddressState();
  usePageTitle('Explore metrics');
  const attrKeys = address.params.getAll('attr_key');
  const names = address.params.getAll('metric');
  const aliases = address.params.getAll('alias');
  const query = address.params.get('query') ?? '';
  const search = address.params.get('search') ?? '';
  const promql = address.params.get('mode') === 'promql';
  // What is typed narrows the table at once; the server is asked once typing pauses (`search`).
  const [typed, setTyped] = useState(search);
  // The same metrics keep the same object while other parameters change.
  const pickedKey = JSON.stringify([names, aliases]);
  const picked = useMemo(() => {
    const [n, a] = JSON.parse(pickedKey) as [string[], string[]];
    return metricsFromParams(n, a);
  }, [pickedKey]);

  const stats = useMetricsStats(projectId, { ...dateRange.apiParams, attr_key: attrKeys, search_input: search });
  const shown = useMemo(() => filterByName(stats.data?.metrics ?? [], typed), [stats.data, typed]);
  const onSearch = useCallback((s: string) => address.set({ search: s || null }), [address]);
  const keys = useMetricAttrKeys(projectId, { ...dateRange.apiParams, metric: [] });

  const open = useCallback(
    (m: Metric) => {
      const alias = suggestAlias(m.name, []);
      address.set(
        { ...metricsToParams([{ name: m.name, alias }]), query: defaultQuery(alias, m.instrument, 'columns') },
        { replace: false },
      );
    },
    [address],
  );
  // Removing the last metric keeps the dialog open for the next one.
  const [emptied, setEmptied] = useState(false);
  const setMetrics = useCallback(
    (m: MetricAlias[], q: string) => {
      setEmptied(m.length === 0);
      address.set({ ...metricsToParams(m), query: q || null });
    },
    [address],
  );
  const setQuery = useCallback((q: string) => address.set({ query: q || null }), [address]);
  const setPromql = useCallback((q: string) => address.set({ promql: q || null }), [address]);
  const close = useCallback(() => {
    setEmptied(false);
    address.set({ metric: null, alias: null, query: null }, { replace: false });
  }, [address]);

  return (
    <Box data-testid="metrics-explore">
      <PageToolbar title="Explore metrics">
        <ToggleButtonGroup
          size="small"
          exclusive
          value={promql ? 'promql' : 'metrics'}
          onChange={(_, v: string | null) => v && address.set({ mode: v === 'promql' ? 'promql' : null })}
          aria-label="Query language"
        >
          <ToggleButton value="metrics" data-testid="mode-metrics">
            Metrics
          </ToggleButton>
          <ToggleButton value="promql" data-testid="mode-promql">
            PromQL
          </ToggleButton>
        </ToggleButtonGroup>
        <DateRangePicker state={dateRange} />
      </PageToolbar>
      {promql ? (
        <Paper variant="outlined" sx={{ p: 1.5, mt: 2 }}>
          <PromqlPanel
            projectId={projectId}
            query={address.params.get('promql') ?? ''}
            onQuery={setPromql}
            range={dateRange.apiParams}
          />
        </Paper>
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '260px minmax(0, 1fr)' }, gap: 2, mt: 2 }}>
          <Paper variant="outlined" sx={{ p: 1.5, alignSelf: 'start' }}>
            {keys.error ? (
              <Alert severity="error">{keys.error.message}</Alert>
            ) : (
              <AttrKeyList
                keys={keys.data?.items ?? []}
                selected={attrKeys}
                onChange={(k) => address.set({ attr_key: k })}
              />
            )}
          </Paper>
          <Paper variant="outlined" sx={{ p: 1.5, minWidth: 0, position: 'relative' }}>
            {stats.isFetching && stats.data && (
              <LinearProgress sx={{ position: 'absolute', top: 0, left: 0, right: 0, height: 2 }} />
            )}
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
              <MetricSearchField value={search} onType={setTyped} onSearch={onSearch} />
              <Box sx={{ flexGrow: 1 }} />
              {stats.data && (
                <Typography variant="body2" color="text.secondary" data-testid="metrics-count">
                  {metricsCount(shown.length, stats.data.hasMore)}
                </Typography>
              )}
            </Stack>
            {stats.error ? (
              <Alert severity="error">{stats.error.message}</Alert>
            ) : !stats.data ? (
              <Skeleton variant="rectangular" height={240} />
            ) : (
              <MetricsTable metrics={shown} hasMore={stats.data.hasMore} onOpen={open} />
            )}
          </Paper>
        </Box>
      )}
      {!promql && (names.length > 0 || emptied) && (
        <ExploreMetricDialog
          projectId={projectId}
          metrics={picked}
          query={query}
          onMetrics={setMetrics}
          onQuery={setQuery}
          onClose={close}
          dateRange={dateRange}
        />
      )}
    </Box>
  );
}
