import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import { Button, Menu, MenuItem, Tab, Tabs, useMediaQuery } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { paths } from '../../lib/routes/paths';

const SECTIONS = [
  { key: 'overview', label: 'Overview', to: paths.overview, prefixes: ['overview'] },
  {
    key: 'spans',
    label: 'Traces & Logs',
    to: (id: number) => paths.spanGroups(id),
    prefixes: ['spans', 'traces', 'events'],
  },
  { key: 'metrics', label: 'Metrics', to: paths.metrics, prefixes: ['metrics'] },
  { key: 'alerting', label: 'Alerts', to: paths.alerting, prefixes: ['alerting', 'alerts'] },
];

/** Below this width the tabs and the search box no longer fit side by side. */
const NARROW = '(max-width: 1099.95px)';

/** The section of the current path, or false when the page belongs to none (settings, help). */
export function sectionOf(pathname: string): string | false {
  const first = pathname.split('/')[1] ?? '';
  return SECTIONS.find((s) => s.prefixes.includes(first))?.key ?? false;
}

/**
 * Spec §1: Overview, Traces & Logs, Metrics and Alerts of the current project. Under 1100 px the
 * tabs collapse into one menu button named after the current section, so every
 * section stays reachable next to the search box.
 */
export function SectionTabs({ projectId }: { projectId: number }) {
  const { pathname } = useLocation();
  const narrow = useMediaQuery(NARROW);
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current = sectionOf(pathname);

  if (narrow) {
    const label = SECTIONS.find((s) => s.key === current)?.label ?? 'Sections';
    return (
      <>
        <Button
          color="inherit"
          endIcon={<ArrowDropDownIcon />}
          onClick={(e) => setAnchor(e.currentTarget)}
          sx={{ textTransform: 'none', fontSize: 15, whiteSpace: 'nowrap', flexShrink: 0 }}
          aria-haspopup="menu"
          data-testid="nav-menu"
        >
          {label}
        </Button>
        <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
          {SECTIONS.map((s) => (
            <MenuItem
              key={s.key}
              selected={s.key === current}
              component={RouterLink}
              to={s.to(projectId)}
              onClick={() => setAnchor(null)}
              data-testid={`nav-menu-${s.key}`}
            >
              {s.label}
            </MenuItem>
          ))}
        </Menu>
      </>
    );
  }
  return (
    <Tabs
      value={current}
      textColor="inherit"
      sx={{ minHeight: 56, '& .MuiTab-root': { minHeight: 56, textTransform: 'none', fontSize: 15 } }}
    >
      {SECTIONS.map((s) => (
        <Tab
          key={s.key}
          value={s.key}
          label={s.label}
          component={RouterLink}
          to={s.to(projectId)}
          data-testid={`nav-${s.key}`}
        />
      ))}
    </Tabs>
  );
}
