import {
  Chip,
  LinearProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { Span } from '@lantern/shared';
import { useState } from 'react';
import { formatUnit } from '../../../lib/format/number';
import { hasNoDuration, joinQuery } from '../query/defaultQueries';
import { useGroups } from '../tracingApi';
import type { AttrContext } from './attrContext';

const SPAN_COLUMNS = [
  '.count',
  '.count_per_min',
  'min(.time)',
  'max(.time)',
  'p50(.duration)',
  'p90(.duration)',
  'p99(.duration)',
];
const EVENT_COLUMNS = SPAN_COLUMNS.slice(0, 4);

/** The values of one attribute within the span's group, with toggleable aggregate columns. */
export function AttrGroups({ span, attrKey, ctx }: { span: Span; attrKey: string; ctx: AttrContext }) {
  const choices = hasNoDuration(span.system) ? EVENT_COLUMNS : SPAN_COLUMNS;
  const [columns, setColumns] = useState<string[]>(
    hasNoDuration(span.system) ? ['.count_per_min'] : ['.count_per_min', 'p50(.duration)'],
  );
  const query = joinQuery([`group by ${attrKey}`, ...columns, `where ${attrKey} exists`]);
  const { data, isFetching, error } = useGroups(ctx.projectId, {
    ...ctx.range,
    system: [span.system],
    group_id: span.groupId,
    query,
  });
  return (
    <Stack spacing={1} data-testid="attr-groups">
      <Stack direction="row" spacing={0.5}>
        {choices.map((c) => (
          <Chip
            key={c}
            size="small"
            label={c}
            color={columns.includes(c) ? 'info' : 'default'}
            onClick={() => setColumns(columns.includes(c) ? columns.filter((x) => x !== c) : [...columns, c])}
          />
        ))}
      </Stack>
      {isFetching && <LinearProgress sx={{ height: 2 }} />}
      {error && <Typography color="error">{error.message}</Typography>}
      {data && (
        <Table size="small">
          <TableHead>
            <TableRow>
              {data.columns.map((c) => (
                <TableCell key={c.name} align={c.isNum ? 'right' : 'left'}>
                  {c.name}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {data.groups.map((g) => (
              <TableRow key={g._id}>
                {data.columns.map((c) => (
                  <TableCell key={c.name} align={c.isNum ? 'right' : 'left'}>
                    {formatUnit(g[c.name], c.unit)}
                  </TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Stack>
  );
}
