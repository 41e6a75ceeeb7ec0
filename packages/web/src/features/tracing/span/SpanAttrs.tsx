import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import {
  Box,
  Chip,
  IconButton,
  Menu,
  MenuItem,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import type { Span } from '@lantern/shared';
import { Fragment, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { CodeBlock } from '../../../components/CodeBlock';
import { paths } from '../../../lib/routes/paths';
import { truncate } from '../../../lib/text/truncate';
import { AttrGroups } from './AttrGroups';
import type { AttrContext } from './attrContext';
import { attrPrefixes, keysForPrefix, nestAttrs } from './attrPrefixes';
import { quoteValue } from '../../../lib/query/facetFilter';
import { exploreAttrQuery, hasNoDuration, joinQuery } from '../query/defaultQueries';

const attrText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/**
 * An attribute value keeps its line breaks and indentation: a log body with a stack trace, a
 * multi-line SQL statement or a pretty-printed payload reads as it was sent, not run together.
 */
const VALUE_SX = { fontFamily: 'ui-monospace, monospace', whiteSpace: 'pre-wrap', wordBreak: 'break-all' } as const;

/** A plain key/value table (event attributes). */
export function SpanAttrsTable({ attrs }: { attrs: Record<string, unknown> }) {
  const keys = Object.keys(attrs).sort();
  if (keys.length === 0) return <Typography color="text.secondary">There are no attributes.</Typography>;
  return (
    <Table size="small" data-testid="span-attrs">
      <TableBody>
        {keys.map((key) => (
          <TableRow key={key}>
            <TableCell sx={{ width: '35%', fontFamily: 'ui-monospace, monospace', verticalAlign: 'top' }}>
              {key}
            </TableCell>
            <TableCell sx={VALUE_SX}>{attrText(attrs[key])}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function AttrMenu({ span, attrKey, value, ctx }: { span: Span; attrKey: string; value: string; ctx: AttrContext }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  const isEvent = hasNoDuration(span.system);
  const close = () => setAnchor(null);
  const label = `${attrKey} = ${truncate(value, 60)}`;
  return (
    <>
      <IconButton
        size="small"
        onClick={(e) => setAnchor(e.currentTarget)}
        aria-label="Attribute actions"
        data-testid="attr-menu"
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        <MenuItem
          dense
          onClick={() => {
            close();
            void navigate(
              paths.spanGroups(ctx.projectId, {
                system: span.system,
                query: joinQuery([
                  exploreAttrQuery(attrKey, isEvent),
                  `where .group_id = ${span.groupId}`,
                  `where ${attrKey} exists`,
                ]),
              }),
            );
          }}
          data-testid="attr-group-by"
        >
          Group by {attrKey}
        </MenuItem>
        {ctx.onFilter ? (
          <MenuItem
            dense
            onClick={() => {
              close();
              ctx.onFilter!(attrKey, value);
            }}
            data-testid="attr-filter"
          >
            {label}
          </MenuItem>
        ) : (
          <MenuItem
            dense
            onClick={() => {
              close();
              void navigate(
                paths.spanGroups(ctx.projectId, {
                  system: span.system,
                  query: joinQuery([exploreAttrQuery('.group_id', isEvent), `where ${attrKey} = ${quoteValue(value)}`]),
                }),
              );
            }}
            data-testid="attr-filter"
          >
            Groups with {label}
          </MenuItem>
        )}
      </Menu>
    </>
  );
}

/** Spec tracing §2 span card Attrs: key filter, prefix chips, Table and JSON views, per-row menu and matching groups. */
export function SpanAttrs({ span, ctx }: { span: Span; ctx: AttrContext }) {
  const allKeys = useMemo(() => Object.keys(span.attrs).sort(), [span.attrs]);
  const prefixes = useMemo(() => attrPrefixes(allKeys), [allKeys]);
  const [filter, setFilter] = useState('');
  const [prefix, setPrefix] = useState<string | null>(null);
  const [view, setView] = useState<'table' | 'json'>('table');
  const [expanded, setExpanded] = useState<string | null>(null);
  const needle = filter.trim().toLowerCase();
  const keys = keysForPrefix(allKeys, prefix, prefixes).filter((k) => !needle || k.toLowerCase().includes(needle));

  return (
    <Box data-testid="span-attrs-view">
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <TextField
          size="small"
          placeholder="Filter keys"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          sx={{ width: 240 }}
          slotProps={{ htmlInput: { 'data-testid': 'attr-filter-input' } }}
        />
        <Stack
          direction="row"
          spacing={0.5}
          sx={{ overflowX: 'auto', flexGrow: 1, py: 0.5 }}
          data-testid="attr-prefixes"
        >
          {prefixes.map((p) => (
            <Chip
              key={p}
              size="small"
              label={p}
              color={prefix === p ? 'info' : 'default'}
              onClick={() => setPrefix(prefix === p ? null : p)}
              data-testid="attr-prefix"
            />
          ))}
        </Stack>
        <Tabs
          value={view}
          onChange={(_e, v: 'table' | 'json') => setView(v)}
          sx={{ minHeight: 32, '& .MuiTab-root': { minHeight: 32, py: 0 } }}
        >
          <Tab value="table" label="Table" data-testid="attrs-view-table" />
          <Tab value="json" label="JSON" data-testid="attrs-view-json" />
        </Tabs>
      </Stack>
      {view === 'json' ? (
        <CodeBlock
          code={JSON.stringify(nestAttrs(Object.fromEntries(keys.map((k) => [k, span.attrs[k]]))), null, 2)}
          testId="attrs-json"
        />
      ) : keys.length === 0 ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>
          There are no attributes matching the filters.
        </Typography>
      ) : (
        <Table size="small" data-testid="span-attrs">
          <TableBody>
            {keys.map((key) => {
              const value = attrText(span.attrs[key]);
              const open = expanded === key;
              return (
                <Fragment key={key}>
                  <TableRow hover data-testid="attr-row" data-key={key}>
                    <TableCell sx={{ width: '30%', fontFamily: 'ui-monospace, monospace', verticalAlign: 'top' }}>
                      {key}
                    </TableCell>
                    <TableCell sx={VALUE_SX}>
                      {value}
                      <AttrMenu span={span} attrKey={key} value={value} ctx={ctx} />
                    </TableCell>
                    <TableCell sx={{ width: 40 }}>
                      <IconButton
                        size="small"
                        onClick={() => setExpanded(open ? null : key)}
                        aria-label={open ? 'Hide groups' : 'Show groups'}
                        data-testid="attr-expand"
                      >
                        {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
                      </IconButton>
                    </TableCell>
                  </TableRow>
                  {open && (
                    <TableRow>
                      <TableCell colSpan={3} sx={{ bgcolor: '#FAFAFA' }}>
                        <AttrGroups span={span} attrKey={key} ctx={ctx} />
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
