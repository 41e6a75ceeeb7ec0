import HelpOutlineIcon from '@mui/icons-material/HelpOutlineOutlined';
import WbIncandescentOutlinedIcon from '@mui/icons-material/WbIncandescentOutlined';
import { AppBar, Box, Button, IconButton, LinearProgress, Link, Toolbar, Tooltip } from '@mui/material';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useCurrentUser, useLogoutMutation } from '../../features/auth/authApi';
import { paths } from '../../lib/routes/paths';
import { AppSearch } from './AppSearch';
import { ProjectPicker } from './ProjectPicker';
import { SectionTabs } from './SectionTabs';
import { UserMenu } from './UserMenu';
import { useRouteProjectId } from './useRouteProjectId';

function Logo() {
  return (
    <Link
      component={RouterLink}
      to={paths.home()}
      underline="none"
      color="inherit"
      sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mr: 1 }}
      data-testid="logo"
    >
      <WbIncandescentOutlinedIcon sx={{ color: '#F9A825', transform: 'rotate(180deg)' }} />
      <Box component="span" sx={{ fontWeight: 700, fontSize: 18, letterSpacing: 0.3 }}>
        Lantern
      </Box>
    </Link>
  );
}

/** Spec §1 and §2.2. Signed out, it shows only the logo and a Login link. */
export function TopBar() {
  const { data: current, isPending } = useCurrentUser();
  const logout = useLogoutMutation();
  const { pathname } = useLocation();
  const routeProjectId = useRouteProjectId();
  // Pages without a project in the path (trace lookup, Home) still get the first project's sections;
  // a path naming no project of the user's (the not-found page) gets none.
  const projectId =
    routeProjectId === undefined
      ? current?.projects[0]?.id
      : current?.projects.some((p) => p.id === routeProjectId)
        ? routeProjectId
        : undefined;
  const helpTo =
    projectId === undefined
      ? undefined
      : pathname.startsWith('/metrics/')
        ? paths.metricsHelp(projectId)
        : paths.tracingHelp(projectId);

  return (
    <AppBar
      position="static"
      color="inherit"
      elevation={0}
      sx={{ borderBottom: '1px solid #0000001f' }}
      data-testid="top-bar"
    >
      <Toolbar sx={{ gap: 1 }}>
        <Logo />
        {current ? (
          <>
            <ProjectPicker projects={current.projects} projectId={projectId} />
            {projectId !== undefined && <SectionTabs projectId={projectId} />}
            <Box sx={{ flexGrow: 1 }} />
            <AppSearch projectId={projectId} />
            {helpTo && (
              <Tooltip title="Help">
                <IconButton component={RouterLink} to={helpTo} aria-label="Help" data-testid="help-link">
                  <HelpOutlineIcon />
                </IconButton>
              </Tooltip>
            )}
            <UserMenu user={current.user} onSignOut={() => logout.mutate()} signingOut={logout.isPending} />
          </>
        ) : (
          <>
            <Box sx={{ flexGrow: 1 }} />
            {!isPending && (
              <Button component={RouterLink} to={paths.login()} color="inherit" data-testid="login-link">
                Login
              </Button>
            )}
          </>
        )}
      </Toolbar>
      {isPending && <LinearProgress sx={{ position: 'absolute', bottom: 0, left: 0, right: 0, height: 2 }} />}
    </AppBar>
  );
}
