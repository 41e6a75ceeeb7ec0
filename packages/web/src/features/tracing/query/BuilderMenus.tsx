import {
  Autocomplete,
  Box,
  Button,
  Chip,
  Divider,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Popover,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
} from '@mui/material';
import NotEqualIcon from '@mui/icons-material/DoNotDisturbAlt';
import { useState, type ReactNode } from 'react';
import { AGG_FUNCS } from '@lantern/shared';
import { useAttrKeys, useAttrValues, type RangeQuery } from '../tracingApi';
import { quoteValue } from '../../../lib/query/facetFilter';
import { addParts, replaceOrPush, resetGroupBy, setWhere } from './defaultQueries';

/** A builder button with its popover card. */
export function MenuButton({
  label,
  width = 400,
  disabled,
  testId,
  children,
}: {
  label: ReactNode;
  width?: number;
  disabled?: boolean;
  testId: string;
  children: (close: () => void) => ReactNode;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        size="small"
        color="inherit"
        disabled={disabled}
        onClick={(e) => setAnchor(e.currentTarget)}
        sx={{ color: '#616161', height: 34, px: 1 }}
        data-testid={testId}
      >
        {label}
      </Button>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Box sx={{ p: 2, width }} data-testid={`${testId}-menu`}>
          {anchor && children(() => setAnchor(null))}
        </Box>
      </Popover>
    </>
  );
}

export interface BuilderContext {
  projectId: number;
  range: RangeQuery;
  query: string;
  setQuery: (q: string) => void;
}

const SEARCH_OPTIONS: { key: string; attrs: string[]; system: string }[] = [
  { key: 'any', attrs: ['.display_name'], system: 'all' },
  { key: 'spans', attrs: ['.name'], system: 'spans:all' },
  { key: 'events', attrs: ['.event_name'], system: 'events:all' },
  { key: 'http', attrs: ['http.method', 'http.route', 'http.target'], system: 'http:all' },
  { key: 'logs', attrs: ['log.severity', 'log.message'], system: 'log:all' },
  { key: 'exceptions', attrs: ['exception.type', 'exception.message'], system: 'log:all' },
  { key: 'funcs', attrs: ['code.function', 'code.filepath'], system: 'spans:all' },
  { key: 'db', attrs: ['db.operation', 'db.sql.table', 'db.statement'], system: 'db:all' },
];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Search: a scope and 'substr1|substr2' text → `where <attrs> contains "<text>"`, and the scope's system. */
export function SearchForm({
  ctx,
  onSystem,
  close,
}: {
  ctx: BuilderContext;
  onSystem: (system: string) => void;
  close: () => void;
}) {
  const [scope, setScope] = useState<string | null>('any');
  const [text, setText] = useState('');
  const option = SEARCH_OPTIONS.find((o) => o.key === scope);
  const apply = () => {
    if (!option || !text.trim()) return;
    const key = option.attrs.length === 1 ? option.attrs[0] : `{${option.attrs.join(',')}}`;
    ctx.setQuery(
      replaceOrPush(
        ctx.query,
        new RegExp(`^where\\s+${escapeRe(key)}\\s+contains\\s`, 'i'),
        `where ${key} contains ${quoteValue(text.trim())}`,
      ),
    );
    onSystem(option.system);
    close();
  };
  return (
    <Stack spacing={2}>
      <ToggleButtonGroup size="small" exclusive value={scope} onChange={(_e, v: string | null) => setScope(v)}>
        {SEARCH_OPTIONS.map((o) => (
          <ToggleButton key={o.key} value={o.key} sx={{ textTransform: 'none' }}>
            {o.key}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Stack direction="row" spacing={0.5}>
        {option?.attrs.map((a) => (
          <Chip key={a} size="small" label={a} />
        ))}
      </Stack>
      <TextField
        size="small"
        variant="filled"
        label="Contains substr1|substr2|substr3"
        helperText='Case-insensitive options separated with "|"'
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && apply()}
        slotProps={{ htmlInput: { 'data-testid': 'search-text' } }}
        autoFocus
      />
      <Box>
        <Button
          variant="contained"
          size="small"
          disabled={!option || !text.trim()}
          onClick={apply}
          data-testid="search-apply"
        >
          Filter
        </Button>
      </Box>
    </Stack>
  );
}

/** Duration: '>= N ms' and/or '< N ms' (spec §5). */
export function DurationForm({ ctx, close }: { ctx: BuilderContext; close: () => void }) {
  const [gte, setGte] = useState('');
  const [lt, setLt] = useState('');
  const gteN = gte === '' ? undefined : Number(gte);
  const ltN = lt === '' ? undefined : Number(lt);
  const valid =
    (gteN !== undefined || ltN !== undefined) &&
    (gteN === undefined || gteN >= 0) &&
    (ltN === undefined || ltN >= (gteN ?? 0) + 1);
  const apply = () => {
    let q = ctx.query;
    // Both spellings of the field are matched so a second use replaces the first (reference quirk fixed).
    if (gteN !== undefined) q = replaceOrPush(q, /^where\s+(span)?\.duration\s+>=\s/i, `where .duration >= ${gteN}ms`);
    if (ltN !== undefined) q = replaceOrPush(q, /^where\s+(span)?\.duration\s+<\s/i, `where .duration < ${ltN}ms`);
    ctx.setQuery(q);
    close();
  };
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <TextField
          size="small"
          type="number"
          label=">= duration"
          value={gte}
          onChange={(e) => setGte(e.target.value)}
          slotProps={{ htmlInput: { min: 0, 'data-testid': 'duration-gte' }, input: { endAdornment: 'ms' } }}
        />
        <Typography variant="body2">AND</Typography>
        <TextField
          size="small"
          type="number"
          label="< duration"
          value={lt}
          onChange={(e) => setLt(e.target.value)}
          slotProps={{
            htmlInput: { min: (gteN ?? 0) + 1, 'data-testid': 'duration-lt' },
            input: { endAdornment: 'ms' },
          }}
        />
      </Stack>
      <Box>
        <Button variant="contained" size="small" disabled={!valid} onClick={apply} data-testid="duration-apply">
          Filter
        </Button>
      </Box>
    </Stack>
  );
}

/** Status: the .status_code values; a click sets `=`, the ≠ button sets `!=`. */
export function StatusForm({ ctx, close }: { ctx: BuilderContext; close: () => void }) {
  const { data, isPending } = useAttrValues(ctx.projectId, {
    ...ctx.range,
    query: undefined,
    attr_key: '.status_code',
  });
  const items = data?.items ?? [];
  const apply = (op: '=' | '!=', value: string) => {
    ctx.setQuery(setWhere(ctx.query, '.status_code', op, value));
    close();
  };
  if (isPending) return <Typography color="text.secondary">Loading...</Typography>;
  if (items.length === 0) return <Typography color="text.secondary">There are no any suggestions.</Typography>;
  return (
    <List dense disablePadding>
      {items.map((i) => (
        <ListItemButton key={i.value} onClick={() => apply('=', i.value)} data-testid="status-option">
          <ListItemText primary={i.value} secondary={`${i.count}`} />
          <Tooltip title={`.status_code != ${i.value}`}>
            <IconButton
              size="small"
              onClick={(e) => {
                e.stopPropagation();
                apply('!=', i.value);
              }}
            >
              <NotEqualIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </ListItemButton>
      ))}
    </List>
  );
}

const OPERATORS = [
  'contains',
  'not contains',
  'like',
  'not like',
  '=',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'exists',
  'not exists',
] as const;

/** Where: quick chips, then column / operator / value. */
export function WhereForm({ ctx, close }: { ctx: BuilderContext; close: () => void }) {
  // Every span field a where can filter on, aggregates included (filters on them go to HAVING).
  const keys = useAttrKeys(ctx.projectId, { ...ctx.range, with_columns: true });
  const [column, setColumn] = useState<string | null>(null);
  const [op, setOp] = useState<string>('=');
  const [value, setValue] = useState('');
  const values = useAttrValues(
    ctx.projectId,
    column ? { ...ctx.range, attr_key: column } : undefined,
    Boolean(column) && !column?.startsWith('.count'),
  );
  const noValue = op === 'exists' || op === 'not exists';
  const valid = Boolean(column) && (noValue || value !== '');
  const apply = () => {
    if (!column) return;
    ctx.setQuery(addParts(ctx.query, noValue ? `where ${column} ${op}` : `where ${column} ${op} ${quoteValue(value)}`));
    close();
  };
  const quick = (col: string, title: string) => (
    <Tooltip title={title}>
      <Chip
        size="small"
        label={`${col} > 0`}
        onClick={() => {
          ctx.setQuery(setWhere(ctx.query, col, '>', '0'));
          close();
        }}
      />
    </Tooltip>
  );
  const hint = op.includes('like')
    ? '"%" matches zero or more characters'
    : op.includes('contains')
      ? 'Case-insensitive options separated with "|"'
      : undefined;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {quick('.event_count', 'Filter spans with events')}
        {quick('.event_log_count', 'Filter spans with logs')}
        {quick('.event_error_count', 'Filter spans with errors')}
      </Stack>
      <Divider />
      <Typography variant="body2">
        For example, <b>where .duration &gt; 100ms</b>.
      </Typography>
      <Autocomplete
        size="small"
        freeSolo
        options={(keys.data?.items ?? []).map((i) => i.value)}
        inputValue={column ?? ''}
        onChange={(_e, v) => setColumn(v || null)}
        onInputChange={(_e, v, reason) => reason !== 'reset' && setColumn(v.trim() || null)}
        renderInput={(p) => (
          <TextField
            {...p}
            label="1. Column"
            slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'where-column' } }}
          />
        )}
      />
      <TextField
        select
        size="small"
        label="2. Operator"
        value={op}
        onChange={(e) => setOp(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'where-op' } }}
      >
        {OPERATORS.map((o) => (
          <MenuItem key={o} value={o}>
            {o}
          </MenuItem>
        ))}
      </TextField>
      <Autocomplete
        size="small"
        freeSolo
        disabled={noValue}
        options={(values.data?.items ?? []).map((i) => i.value)}
        inputValue={value}
        onChange={(_e, v) => setValue(v ?? '')}
        onInputChange={(_e, v, reason) => reason !== 'reset' && setValue(v)}
        renderInput={(p) => (
          <TextField
            {...p}
            label="3. Value"
            placeholder={
              op.includes('like')
                ? '%substring% or %suffix or prefix%'
                : op.includes('contains')
                  ? 'substr1|substr2|substr3'
                  : undefined
            }
            helperText={hint}
            slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'where-value' } }}
          />
        )}
      />
      <Box>
        <Button variant="contained" size="small" disabled={!valid} onClick={apply} data-testid="where-apply">
          Filter
        </Button>
      </Box>
    </Stack>
  );
}

const AGG_CHIPS: [string, string][] = [
  ['.count', 'Number of spans in a group'],
  ['.count_per_min', 'Number of spans per minute'],
  ['.error_count', 'Number of spans with .status_code = "error"'],
  ['.error_rate', 'Percent of spans with .status_code = "error"'],
  ['p75(.duration)', '75th percentile of the duration'],
  ['max(.duration)', 'Maximum duration'],
  ['uniq(enduser.id)', 'Number of unique users'],
];
const FUNCS = AGG_FUNCS.filter((f) => f !== 'count' && f !== 'per_min');

/** Agg: quick aggregate chips, or a function then a column (column required). */
export function AggForm({ ctx, close }: { ctx: BuilderContext; close: () => void }) {
  const [func, setFunc] = useState<(typeof FUNCS)[number] | null>(null);
  const [column, setColumn] = useState<string | null>(null);
  // The keys that fit the function: numeric ones (.duration, counters, number-valued attributes) for sum/avg/p50...
  const keys = useAttrKeys(ctx.projectId, func ? { ...ctx.range, func } : undefined);
  const options = (keys.data?.items ?? []).map((i) => i.value);
  const add = (part: string) => {
    ctx.setQuery(addParts(ctx.query, part));
    close();
  };
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {AGG_CHIPS.map(([c, t]) => (
          <Tooltip key={c} title={t}>
            <Chip size="small" label={c} onClick={() => add(c)} data-testid="agg-chip" />
          </Tooltip>
        ))}
      </Stack>
      <Divider>or</Divider>
      <Typography variant="body2">
        Select a function and then a column: <b>func(column)</b>.
      </Typography>
      <Autocomplete
        size="small"
        options={FUNCS}
        getOptionLabel={(f) => `${f}(...)`}
        value={func}
        onChange={(_e, v) => setFunc(v)}
        renderInput={(p) => (
          <TextField
            {...p}
            label="Function"
            slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'agg-func' } }}
          />
        )}
      />
      <Autocomplete
        size="small"
        freeSolo
        disabled={!func}
        options={options}
        value={column}
        onChange={(_e, v) => setColumn(v)}
        onInputChange={(_e, v, reason) => reason !== 'reset' && setColumn(v || null)}
        renderInput={(p) => (
          <TextField
            {...p}
            label="Column"
            error={Boolean(func) && !column}
            helperText={func && !column ? 'Column is required' : undefined}
            slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'agg-column' } }}
          />
        )}
      />
      <Box>
        <Button
          variant="contained"
          size="small"
          disabled={!func || !column}
          onClick={() => add(`${func}(${column})`)}
          data-testid="agg-apply"
        >
          Add column
        </Button>
      </Box>
    </Stack>
  );
}

const GROUP_CHIPS = ['.system', '.group_id', 'service.name', 'host.name'];

/** Group by: quick chips replace the grouping; a column can be added or replace it. */
export function GroupByForm({ ctx, close }: { ctx: BuilderContext; close: () => void }) {
  const keys = useAttrKeys(ctx.projectId, { ...ctx.range, kind: 'group' });
  const [column, setColumn] = useState<string | null>(null);
  const done = (q: string) => {
    ctx.setQuery(q);
    close();
  };
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={0.5}>
        {GROUP_CHIPS.map((c) => (
          <Chip
            key={c}
            size="small"
            label={c}
            onClick={() => done(resetGroupBy(ctx.query, c))}
            data-testid="group-chip"
          />
        ))}
      </Stack>
      <Divider>or</Divider>
      <Typography variant="body2">Select a grouping column.</Typography>
      <Autocomplete
        size="small"
        options={(keys.data?.items ?? []).map((i) => i.value)}
        value={column}
        onChange={(_e, v) => setColumn(v)}
        renderInput={(p) => (
          <TextField
            {...p}
            label="Column"
            slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'group-column' } }}
          />
        )}
      />
      <Stack direction="row" spacing={1}>
        <Button
          size="small"
          variant="outlined"
          disabled={!column}
          onClick={() => done(addParts(ctx.query, `group by ${column}`))}
        >
          Add
        </Button>
        <Button
          size="small"
          variant="contained"
          disabled={!column}
          onClick={() => done(resetGroupBy(ctx.query, column!))}
          data-testid="group-replace"
        >
          Replace
        </Button>
      </Stack>
    </Stack>
  );
}
