import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import ViewListIcon from '@mui/icons-material/ViewList';
import PushPinIcon from '@mui/icons-material/PushPin';
import PushPinOutlinedIcon from '@mui/icons-material/PushPinOutlined';
import {
  Autocomplete,
  Box,
  IconButton,
  ListItemText,
  Menu,
  MenuItem,
  Popover,
  Stack,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import type { Dashboard } from '@lantern/shared';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { paths } from '../../../lib/routes/paths';
import { DateRangePicker } from '../../../components/date/DateRangePicker';
import type { DateRangeState } from '../../../components/date/useDateRange';
import { ImportYamlButton } from './ImportYamlButton';

export type DashboardAction = 'new' | 'edit' | 'clone' | 'delete';

/** Pinned first (with a pin icon), then by name: the order the server lists them in. */
function DashboardPicker({
  dashboards,
  current,
  onPick,
  onOpen,
}: {
  dashboards: Dashboard[];
  current: Dashboard;
  onPick: (d: Dashboard) => void;
  onOpen?: () => void;
}) {
  return (
    <Autocomplete
      size="small"
      disableClearable
      options={dashboards}
      value={current}
      onChange={(_e, d) => d && onPick(d)}
      onOpen={onOpen}
      getOptionLabel={(d) => d.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      sx={{ width: 340 }}
      renderOption={(props, d) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <Box component="li" key={key} {...rest} data-testid="dashboard-option">
            {d.pinned && (
              <PushPinIcon
                fontSize="inherit"
                sx={{ mr: 1, color: 'text.secondary' }}
                data-testid="dashboard-option-pin"
              />
            )}
            {d.name}
          </Box>
        );
      }}
      renderInput={(p) => (
        <TextField
          {...p}
          label="Dashboard"
          slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'dashboard-picker' } }}
        />
      )}
    />
  );
}

function KindsHelp() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title="Table and grid dashboards">
        <IconButton size="small" onClick={(e) => setAnchor(e.currentTarget)} data-testid="dashboard-help">
          <HelpOutlineIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      >
        <Box sx={{ p: 2, maxWidth: 420 }} data-testid="dashboard-help-popup">
          <Typography variant="subtitle2" gutterBottom>
            Two kinds of dashboards in one
          </Typography>
          <Typography variant="body2" gutterBottom>
            <b>Table</b>: one row per group (a service, a host, any attribute), with a column per metric query. Click a
            row to see the grid for that row alone.
          </Typography>
          <Typography variant="body2">
            <b>Grid</b>: charts, tables and heatmaps laid out freely; the dashboard's query (for example{' '}
            <code>where service.name = api</code>) applies to every panel.
          </Typography>
          <Typography variant="body2" sx={{ mt: 1 }}>
            <b>Variables</b>: pickers above the tabs. A panel query names one as <code>$name</code> (
            <code>where service.name = $service</code>, <code>group by $group</code>); the value picked replaces it,
            several become <code>in (...)</code> and All drops the filter. In a PromQL panel write{' '}
            <code>{'{service=~"$service"}'}</code> as in Grafana: several become <code>(a|b)</code> and All{' '}
            <code>.*</code>. A variable&apos;s values can follow the ones before it: give it a filter such as{' '}
            <code>where region = $region</code> in the Variables editor. The choice stays in the address, so a shared
            link shows the same.
          </Typography>
          <Typography variant="body2" sx={{ mt: 1 }}>
            <b>Gauges</b>: one value above the grid, shown as text, a big stat or a dial. Thresholds colour it as in
            Grafana: from each step's value up the value, its border and the dial's band take that step's colour (for
            example amber from 80, red from 95); below the first step, the gauge's own colour.
          </Typography>
        </Box>
      </Popover>
    </>
  );
}

/** Spec Dashboard page: picker, menu, pin, help, and the date range (at most 90 days). */
/** `onOpenPicker`: refresh the list as it opens (built-in dashboards appear as their metrics arrive). */
export function DashboardToolbar(props: {
  projectId: number;
  dashboards: Dashboard[];
  current: Dashboard;
  range: DateRangeState;
  onPick: (d: Dashboard) => void;
  onOpenPicker?: () => void;
  onAction: (a: DashboardAction) => void;
  onPin: () => void;
}) {
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const act = (a: DashboardAction) => {
    setMenu(null);
    props.onAction(a);
  };
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ alignItems: 'center', flexWrap: 'wrap' }}
      data-testid="dashboard-toolbar"
    >
      <DashboardPicker
        dashboards={props.dashboards}
        current={props.current}
        onPick={props.onPick}
        onOpen={props.onOpenPicker}
      />
      <Tooltip title="All dashboards: search, tags, templates">
        <IconButton
          component={RouterLink}
          to={paths.dashboardList(props.projectId)}
          aria-label="All dashboards"
          data-testid="all-dashboards"
        >
          <ViewListIcon />
        </IconButton>
      </Tooltip>
      <Tooltip title={props.current.pinned ? 'Unpin' : 'Pin to the top of the list'}>
        <IconButton onClick={props.onPin} data-testid="dashboard-pin" aria-pressed={props.current.pinned}>
          {props.current.pinned ? <PushPinIcon /> : <PushPinOutlinedIcon />}
        </IconButton>
      </Tooltip>
      <IconButton onClick={(e) => setMenu(e.currentTarget)} aria-label="Dashboard menu" data-testid="dashboard-menu">
        <MoreVertIcon />
      </IconButton>
      <Menu open={menu !== null} anchorEl={menu} onClose={() => setMenu(null)}>
        <MenuItem onClick={() => act('new')}>
          <ListItemText>New dashboard</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => act('edit')}>
          <ListItemText>Edit dashboard</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => act('clone')}>
          <ListItemText>Clone dashboard</ListItemText>
        </MenuItem>
        <MenuItem onClick={() => act('delete')}>
          <ListItemText sx={{ color: 'error.main' }}>Delete dashboard</ListItemText>
        </MenuItem>
      </Menu>
      <KindsHelp />
      <ImportYamlButton projectId={props.projectId} />
      <Box sx={{ flexGrow: 1 }} />
      <DateRangePicker state={props.range} />
    </Stack>
  );
}
