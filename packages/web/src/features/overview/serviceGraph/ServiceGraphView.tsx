import { Alert, Box, InputAdornment, Paper, Skeleton, Stack, TextField, Typography } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import type { ServiceGraphEdge, ServiceGraphNode } from '@lantern/shared';
import { useCallback, useMemo, useState } from 'react';
import type { DateRangeState } from '../../../components/date/useDateRange';
import { paths } from '../../../lib/routes/paths';
import { toAddress } from '../../../lib/time/dateRange';
import { ServiceGraphCard, type CardSubject } from './ServiceGraphCard';
import { ServiceGraphChart, type GraphSelection } from './ServiceGraphChart';
import { ServiceGraphEdgeTable } from './ServiceGraphEdgeTable';
import { useProject } from '../../projects/projectsApi';
import { useServiceGraph } from './serviceGraphApi';
import { edgeExplore, ERROR_BANDS, NO_CALLS_COLOR, nodeExplore, type ExploreTarget } from './serviceGraphModel';

/**
 * Overview -> Service graph (issue 36): who calls whom over the date range. The graph (left to
 * right by call depth, pan and zoom, a search that highlights services), its legend, a card for the
 * clicked node or edge, and beside it the edges as a sortable table.
 */
export function ServiceGraphView({ projectId, dateRange }: { projectId: number; dateRange: DateRangeState }) {
  const range = dateRange.apiParams;
  const graph = useServiceGraph(projectId, range);
  const groupByEnv = useProject(projectId).data?.project.groupByEnv ?? false;
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<GraphSelection | null>(null);
  const minutes = Math.max(1, Math.round(dateRange.range.duration / 60_000));
  const timeParams = useMemo(() => toAddress(dateRange.range), [dateRange.range]);
  const href = useCallback(
    (t: ExploreTarget) => paths.spanItems(projectId, { system: t.system, query: t.query, ...timeParams }),
    [projectId, timeParams],
  );
  const nodes = useMemo(() => graph.data?.nodes ?? [], [graph.data]);
  const edges = useMemo(() => graph.data?.edges ?? [], [graph.data]);
  const byName = useMemo(() => new Map(nodes.map((n) => [n.name, n])), [nodes]);
  const edgeHref = useCallback(
    (e: ServiceGraphEdge) => href(edgeExplore(e, byName.get(e.server), groupByEnv)),
    [href, byName, groupByEnv],
  );
  const subject = useMemo(
    () => (selected ? cardSubject(selected, byName, edges, (n) => nodeExplore(n, groupByEnv), href, edgeHref) : null),
    [selected, byName, edges, href, edgeHref, groupByEnv],
  );

  if (graph.error) return <Alert severity="error">{graph.error.message}</Alert>;
  if (!graph.data) return <Skeleton variant="rectangular" height={520} />;
  if (nodes.length === 0)
    return (
      <Alert severity="info" data-testid="service-graph-empty">
        No services in this range. The graph is built from spans each minute: send traces, then reload.
      </Alert>
    );

  return (
    <Stack spacing={2} data-testid="service-graph">
      <Stack direction="row" spacing={2} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          size="small"
          placeholder="Find a service"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
            htmlInput: { 'data-testid': 'service-graph-search', 'aria-label': 'Find a service' },
          }}
        />
        <Legend />
      </Stack>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Paper variant="outlined" sx={{ flex: 1, minWidth: 0, width: '100%' }}>
          <ServiceGraphChart nodes={nodes} edges={edges} minutes={minutes} highlight={search} onSelect={setSelected} />
        </Paper>
        <Stack spacing={2} sx={{ flex: { xs: 1, md: '0 0 46%' }, minWidth: 0, width: '100%' }}>
          {subject && (
            <ServiceGraphCard
              projectId={projectId}
              range={range}
              minutes={minutes}
              subject={subject}
              onClose={() => setSelected(null)}
            />
          )}
          <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
            <ServiceGraphEdgeTable
              edges={edges}
              minutes={minutes}
              exploreHref={edgeHref}
              onNode={(node) => setSelected({ node })}
              onEdge={(e) => setSelected({ client: e.client, server: e.server })}
            />
          </Paper>
        </Stack>
      </Stack>
    </Stack>
  );
}

function Legend() {
  const swatch = (color: string, dashed = false) => (
    <Box
      component="span"
      sx={{
        display: 'inline-block',
        width: 12,
        height: 12,
        borderRadius: '50%',
        bgcolor: dashed ? 'transparent' : color,
        border: `2px ${dashed ? 'dashed' : 'solid'} ${color}`,
        mr: 0.5,
        verticalAlign: 'middle',
      }}
    />
  );
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }} data-testid="service-graph-legend">
      {ERROR_BANDS.map((b) => (
        <Typography key={b.label} variant="caption">
          {swatch(b.color)}
          {b.label}
        </Typography>
      ))}
      <Typography variant="caption">
        {swatch(NO_CALLS_COLOR)}
        no calls
      </Typography>
      <Typography variant="caption">
        {swatch('#616161', true)}
        virtual: sends no spans (square: server, rounded: database, diamond: messaging)
      </Typography>
    </Stack>
  );
}

function cardSubject(
  selected: GraphSelection,
  byName: Map<string, ServiceGraphNode>,
  edges: ServiceGraphEdge[],
  exploreNode: (n: ServiceGraphNode) => ExploreTarget | null,
  href: (t: ExploreTarget) => string,
  edgeHref: (e: ServiceGraphEdge) => string,
): CardSubject | null {
  if ('node' in selected) {
    const node = byName.get(selected.node);
    if (!node) return null;
    const explore = exploreNode(node);
    return {
      title: node.name,
      subtitle: node.virtual
        ? `virtual ${node.type} node: the calls into it as its clients measured them`
        : 'service: its server spans',
      calls: node.calls,
      errors: node.errors,
      p50: node.p50,
      p99: node.p99,
      series: { node: node.name },
      exploreHref: explore ? href(explore) : null,
      exploreLabel: node.virtual ? 'Calls in Explore' : 'Server spans in Explore',
    };
  }
  const found = edges.filter((e) => e.client === selected.client && e.server === selected.server);
  if (found.length === 0) return null;
  const sum = (k: 'calls' | 'errors') => found.reduce((a, e) => a + e[k], 0);
  return {
    title: `${selected.client} → ${selected.server}`,
    subtitle: `${found.map((e) => e.connectionType).join(', ')} calls, as the client measured them`,
    calls: sum('calls'),
    errors: sum('errors'),
    p50: found[0].p50,
    p99: found[0].p99,
    series: { client: selected.client, server: selected.server },
    exploreHref: edgeHref(found[0]),
    exploreLabel: 'Client spans in Explore',
  };
}
