import FilterListIcon from '@mui/icons-material/FilterList';
import { Box, Button, Divider, Stack } from '@mui/material';
import type { QueryPart } from '@lantern/shared';
import { useState } from 'react';
import {
  AggForm,
  DurationForm,
  GroupByForm,
  MenuButton,
  SearchForm,
  StatusForm,
  WhereForm,
  type BuilderContext,
} from './BuilderMenus';
import { FacetDrawer, type FacetSource } from '../../../components/FacetDrawer';
import { usePinFacet } from '../../../lib/api/pinnedFacets';
import { useAttrKeys, useAttrValues } from '../tracingApi';
import { whereQuery } from './defaultQueries';
import { selectedValues, withValues } from './facetFilter';
import { QueryChips, RawQueryEditor } from './QueryChips';
import { QueryHelpDialog } from './QueryHelpDialog';

const btn = { color: '#616161', height: 34, px: 1 } as const;

/** The Filters drawer over spans: keys and values of the range and the query's where parts. */
function useSpanFacets(ctx: BuilderContext, open: boolean): FacetSource {
  const range = { ...ctx.range, query: whereQuery(ctx.query) || undefined };
  const pin = usePinFacet();
  return {
    keys: useAttrKeys(ctx.projectId, { ...range, kind: 'text' }, open),
    useValues: (attr, enabled) => useAttrValues(ctx.projectId, { ...range, attr_key: attr }, enabled),
    selected: (attr) => selectedValues(ctx.query, attr),
    select: (attr, values) => ctx.setQuery(withValues(ctx.query, attr, values)),
    pin: (attr, pinned) => pin.mutate({ attr, pinned }),
  };
}

/**
 * The Explore spans query builder (spec §2): Search, Duration, Status, Filters | Where, Agg,
 * Group by | Help, Reset, Edit, above the query chips (or the raw editor).
 */
export function SpanQueryBuilder({
  ctx,
  serverParts,
  isEvents,
  canAggregate,
  onSystem,
  onReset,
}: {
  ctx: BuilderContext;
  serverParts?: QueryPart[];
  isEvents: boolean;
  /** Agg and Group by only make sense on the Groups tab. */
  canAggregate: boolean;
  onSystem: (system: string) => void;
  onReset: () => void;
}) {
  const [raw, setRaw] = useState(false);
  const [facets, setFacets] = useState(false);
  const [help, setHelp] = useState(false);
  const facetSource = useSpanFacets(ctx, facets);
  return (
    <Box sx={{ borderBottom: 1, borderColor: 'divider', pb: 1 }} data-testid="query-builder">
      <Stack direction="row" sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <MenuButton label="Search" width={550} testId="qb-search">
          {(close) => <SearchForm ctx={ctx} onSystem={onSystem} close={close} />}
        </MenuButton>
        {!isEvents && (
          <MenuButton label="Duration" width={380} testId="qb-duration">
            {(close) => <DurationForm ctx={ctx} close={close} />}
          </MenuButton>
        )}
        <MenuButton label="Status" width={300} testId="qb-status">
          {(close) => <StatusForm ctx={ctx} close={close} />}
        </MenuButton>
        <Button
          size="small"
          color="inherit"
          sx={btn}
          startIcon={<FilterListIcon />}
          onClick={() => setFacets(true)}
          data-testid="qb-filters"
        >
          Filters
        </Button>
        <Divider orientation="vertical" flexItem sx={{ mx: 1 }} />
        <MenuButton label="Where" testId="qb-where">
          {(close) => <WhereForm ctx={ctx} close={close} />}
        </MenuButton>
        <MenuButton label="Agg" disabled={!canAggregate} testId="qb-agg">
          {(close) => <AggForm ctx={ctx} close={close} />}
        </MenuButton>
        <MenuButton label="Group by" disabled={!canAggregate} testId="qb-group-by">
          {(close) => <GroupByForm ctx={ctx} close={close} />}
        </MenuButton>
        <Divider orientation="vertical" flexItem sx={{ mx: 1 }} />
        <Button size="small" color="inherit" sx={btn} onClick={() => setHelp(true)} data-testid="qb-help">
          Help
        </Button>
        <Button size="small" color="inherit" sx={btn} onClick={onReset} data-testid="qb-reset">
          Reset
        </Button>
        <Button size="small" color="inherit" sx={btn} onClick={() => setRaw(!raw)} data-testid="qb-edit">
          {raw ? 'Cancel' : 'Edit'}
        </Button>
      </Stack>
      {raw ? (
        <RawQueryEditor
          query={ctx.query}
          onApply={(q) => {
            ctx.setQuery(q.trim());
            setRaw(false);
          }}
          onCancel={() => setRaw(false)}
        />
      ) : (
        <QueryChips query={ctx.query} serverParts={serverParts} onChange={ctx.setQuery} onRaw={() => setRaw(true)} />
      )}
      <FacetDrawer open={facets} onClose={() => setFacets(false)} source={facetSource} />
      <QueryHelpDialog open={help} onClose={() => setHelp(false)} />
    </Box>
  );
}
