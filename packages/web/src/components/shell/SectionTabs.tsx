import { Tab, Tabs } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { paths } from '../../lib/routes/paths';

const SECTIONS = [
  { key: 'overview', label: 'Overview', to: paths.overview, prefixes: ['overview'] },
  { key: 'spans', label: 'Traces & Logs', to: (id: number) => paths.spanGroups(id), prefixes: ['spans', 'traces', 'events'] },
  { key: 'metrics', label: 'Metrics', to: paths.metrics, prefixes: ['metrics'] },
  { key: 'alerting', label: 'Alerts', to: paths.alerting, prefixes: ['alerting', 'alerts'] },
];

/** The section of the current path, or false when the page belongs to none (settings, help). */
export function sectionOf(pathname: string): string | false {
  const first = pathname.split('/')[1] ?? '';
  return SECTIONS.find((s) => s.prefixes.includes(first))?.key ?? false;
}

/** Spec §1: Overview, Traces & Logs, Metrics and Alerts of the current project. */
export function SectionTabs({ projectId }: { projectId: number }) {
  const { pathname } = useLocation();
  return (
    <Tabs value={sectionOf(pathname)} textColor="inherit" sx={{ minHeight: 56, '& .MuiTab-root': { minHeight: 56, textTransform: 'none', fontSize: 15 } }}>
      {SECTIONS.map((s) => (
        <Tab key={s.key} value={s.key} label={s.label} component={RouterLink} to={s.to(projectId)} data-testid={`nav-${s.key}`} />
      ))}
    </Tabs>
  );
}
