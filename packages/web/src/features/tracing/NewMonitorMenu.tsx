import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { Button, IconButton, Menu, MenuItem } from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { joinQuery } from './query/defaultQueries';

/**
 * "Monitor" menu of group rows, span cards and event panels (reference frontend §1.3.16): each item
 * opens the new metric monitor form prefilled with a metric over the spans (or events) of the
 * group, named `<system> > <name>`.
 */
const SPAN_ITEMS = [
  ['Monitor number of spans', 'per_min(count($spans))'],
  ['Monitor number of failed spans', 'per_min(count($spans{.status_code="error"}))'],
  ['Monitor error rate', 'count($spans{.status_code="error"}) / count($spans) as err_rate'],
  ['Monitor p50 duration', 'p50($spans)'],
  ['Monitor p90 duration', 'p90($spans)'],
  ['Monitor p99 duration', 'p99($spans)'],
  ['Monitor avg duration', 'avg($spans)'],
] as const;
const EVENT_ITEMS = [['Monitor number of events', 'per_min($events)']] as const;

/**
 * The unit of an item's column the query cannot tell (a ratio of two counts has none): sent as the
 * form's column map, so the error rate reads and is bounded as a percentage (0.05 is "5%").
 */
const COLUMN_UNITS: Readonly<Record<string, string>> = { err_rate: 'utilization' };

export function newMonitorHref(projectId: number, name: string, isEvent: boolean, expr: string, where: string): string {
  const params = new URLSearchParams({
    name,
    metric: isEvent ? 'lantern.tracing.events' : 'lantern.tracing.spans',
    alias: isEvent ? 'events' : 'spans',
    query: joinQuery([expr, where]),
  });
  const column = / as (\w+)$/.exec(expr)?.[1];
  if (column && COLUMN_UNITS[column])
    params.set('columns', JSON.stringify({ [column]: { unit: COLUMN_UNITS[column], color: '' } }));
  return `/alerting/${projectId}/monitors/new-metric?${params}`;
}

export function NewMonitorMenu({
  projectId,
  name,
  where,
  isEvent = false,
  verbose = false,
}: {
  projectId: number;
  name: string;
  where: string;
  isEvent?: boolean;
  verbose?: boolean;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  return (
    <>
      {verbose ? (
        <Button
          size="small"
          variant="outlined"
          endIcon={<ArrowDropDownIcon />}
          onClick={(e) => setAnchor(e.currentTarget)}
          data-testid="monitor-menu"
        >
          Monitor
        </Button>
      ) : (
        <IconButton
          size="small"
          onClick={(e) => {
            e.stopPropagation();
            setAnchor(e.currentTarget);
          }}
          aria-label="Monitor"
          data-testid="monitor-menu"
        >
          <MoreVertIcon fontSize="small" />
        </IconButton>
      )}
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        onClick={(e) => e.stopPropagation()}
      >
        {(isEvent ? EVENT_ITEMS : SPAN_ITEMS).map(([label, expr]) => (
          <MenuItem
            key={label}
            dense
            onClick={() => void navigate(newMonitorHref(projectId, name, isEvent, expr, where))}
          >
            {label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
