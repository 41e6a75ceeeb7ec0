import { Alert, Box, Button, LinearProgress, Link, Stack, Tooltip, Typography } from '@mui/material';
import type { AttrDelta } from '@lantern/shared';
import { useState } from 'react';
import { isApiError } from '../../../../lib/api/apiClient';
import { countOf } from '../../../../lib/format/countText';
import type { RangeQuery } from '../../tracingApi';
import { valueFilter, valueLabel } from './selection';
import { useAttrDeltas } from './whatChangedApi';

/** Keys shown before "Show all"; values shown per key. */
const FIRST_KEYS = 8;
const VALUES_PER_KEY = 6;
export const SELECTION_COLOR = '#FB8C00';
const BASELINE_COLOR = '#90A4AE';

/**
 * The What changed panel (issue 38): the keys whose values set the selection apart from the other
 * spans of the query, largest difference first, each value with side-by-side bars (its share of the
 * selection and of the baseline); a click on a value adds it to the query (`onFilter`).
 */
export function WhatChangedPanel({
  projectId,
  range,
  selection,
  onFilter,
}: {
  projectId: number;
  range: RangeQuery;
  selection: string;
  onFilter: (wherePart: string) => void;
}) {
  const { data, error, isFetching } = useAttrDeltas(projectId, range, selection);
  const [all, setAll] = useState(false);
  if (error)
    return (
      <Alert severity={isApiError(error, 400) ? 'warning' : 'error'} data-testid="what-changed-error">
        {error.message}
      </Alert>
    );
  const attrs = data?.attrs ?? [];
  const shown = all ? attrs : attrs.slice(0, FIRST_KEYS);
  return (
    <Box data-testid="what-changed" aria-busy={isFetching || undefined}>
      {isFetching && <LinearProgress sx={{ height: 2, mb: 1 }} />}
      {data && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1, flexWrap: 'wrap' }}>
          <Legend color={SELECTION_COLOR} label={`Selection: ${sampledText(data.selection)}`} />
          <Legend
            color={BASELINE_COLOR}
            label={`Baseline (the other spans of the query): ${sampledText(data.baseline)}`}
          />
        </Stack>
      )}
      {data && data.selection.count === 0 && (
        <Typography color="text.secondary" sx={{ py: 2 }} data-testid="what-changed-empty">
          No span of the query matches the selection.
        </Typography>
      )}
      {data && data.selection.count > 0 && attrs.length === 0 && (
        <Typography color="text.secondary" sx={{ py: 2 }} data-testid="what-changed-empty">
          No attribute sets the selection apart.
        </Typography>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(340px, 1fr))', gap: 2 }}>
        {shown.map((a) => (
          <AttrCard key={a.key} attr={a} onFilter={onFilter} />
        ))}
      </Box>
      {attrs.length > FIRST_KEYS && (
        <Button size="small" sx={{ mt: 1 }} onClick={() => setAll(!all)} data-testid="what-changed-more">
          {all ? 'Show fewer' : `Show all ${attrs.length}`}
        </Button>
      )}
    </Box>
  );
}

const sampledText = (s: { count: number; sampled: number }) =>
  s.sampled < s.count
    ? `${countOf(s.count, 'span')} (${s.sampled.toLocaleString('en-US')} sampled)`
    : countOf(s.count, 'span');

function Legend({ color, label }: { color: string; label: string }) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
      <Box sx={{ width: 12, height: 12, bgcolor: color, borderRadius: 0.5 }} />
      <Typography variant="body2">{label}</Typography>
    </Stack>
  );
}

function AttrCard({ attr, onFilter }: { attr: AttrDelta; onFilter: (wherePart: string) => void }) {
  // A numeric key's bins stay in their order (a histogram); other values come largest difference first.
  const values = attr.values.slice(0, attr.numeric ? undefined : VALUES_PER_KEY);
  return (
    <Box
      sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5 }}
      data-testid="what-changed-attr"
      data-key={attr.key}
    >
      <Stack direction="row" sx={{ alignItems: 'baseline', mb: 1 }}>
        <Typography variant="subtitle2" sx={{ flexGrow: 1, wordBreak: 'break-all' }}>
          {attr.key}
        </Typography>
        <Tooltip title="The largest difference between a value's share of the selection and of the baseline">
          <Typography variant="caption" color="text.secondary" data-testid="what-changed-score">
            {attr.score.toFixed(0)} pts
          </Typography>
        </Tooltip>
      </Stack>
      <Stack spacing={0.75}>
        {values.map((v, i) => {
          const label = valueLabel(attr.key, v);
          const filter = valueFilter(attr.key, v, attr.numeric && i === values.length - 1);
          return (
            <Box key={v.value} data-testid="what-changed-value" data-value={v.value}>
              <Link
                component="button"
                variant="body2"
                underline="hover"
                sx={{ textAlign: 'left', wordBreak: 'break-all' }}
                title={`Add ${filter} to the query`}
                onClick={() => onFilter(filter)}
                data-testid="what-changed-value-link"
              >
                {label}
              </Link>
              <Bar pct={v.selectionPct} color={SELECTION_COLOR} testId="what-changed-selection-pct" />
              <Bar pct={v.baselinePct} color={BASELINE_COLOR} testId="what-changed-baseline-pct" />
            </Box>
          );
        })}
      </Stack>
    </Box>
  );
}

function Bar({ pct, color, testId }: { pct: number; color: string; testId: string }) {
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
      <Box sx={{ flexGrow: 1, height: 8, bgcolor: '#F5F5F5', borderRadius: 0.5 }}>
        <Box sx={{ width: `${Math.min(pct, 100)}%`, height: '100%', bgcolor: color, borderRadius: 0.5 }} />
      </Box>
      <Typography variant="caption" sx={{ width: 48, textAlign: 'right' }} data-testid={testId} data-pct={pct}>
        {pct < 10 ? pct.toFixed(1) : pct.toFixed(0)}%
      </Typography>
    </Stack>
  );
}
