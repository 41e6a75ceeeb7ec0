import { Box, Stack, Tab, Tabs } from '@mui/material';
import { Link as RouterLink, Outlet, useLocation } from 'react-router-dom';
import { NotFoundPage } from '../../app/NotFoundPage';
import { paths } from '../../lib/routes/paths';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';

const TABS = [
  { key: 'alerts', label: 'Alerts', to: (id: number) => paths.alerts(id) },
  { key: 'monitors', label: 'Monitors', to: (id: number) => paths.monitors(id) },
  { key: 'channels', label: 'Channels', to: paths.channels },
  { key: 'email', label: 'Email notifications', to: paths.emailNotifications },
] as const;

/** The tab of `/alerting/:projectId/<tab>/...`. */
export function alertingTabOf(pathname: string): string | false {
  const tab = pathname.split('/')[3] ?? '';
  return TABS.some((t) => t.key === tab) ? tab : false;
}

/** Spec platform §2.1 the Alerting shell: tabs Alerts, Monitors, Channels, Email notifications over the page. */
export function AlertingLayout() {
  const projectId = useProjectIdParam();
  const { pathname } = useLocation();
  if (projectId === undefined) return <NotFoundPage />;
  return (
    <Stack spacing={2} data-testid="alerting-layout">
      <Box sx={{ borderBottom: 1, borderColor: 'divider' }}>
        <Tabs
          value={alertingTabOf(pathname)}
          aria-label="Alerting"
          sx={{ '& .MuiTab-root': { textTransform: 'none', fontSize: 15 } }}
        >
          {TABS.map((t) => (
            <Tab
              key={t.key}
              value={t.key}
              label={t.label}
              component={RouterLink}
              to={t.to(projectId)}
              data-testid={`alerting-tab-${t.key}`}
            />
          ))}
        </Tabs>
      </Box>
      <Outlet />
    </Stack>
  );
}
