import { Box, Container } from '@mui/material';
import { Outlet, ScrollRestoration, useMatches } from 'react-router-dom';
import { Footer } from '../components/shell/Footer';
import { TopBar } from '../components/shell/TopBar';

/** Routes may set `handle: { fullBleed: true }` to draw edge to edge (Login's grey backdrop). */
export interface RouteHandle {
  fullBleed?: boolean;
}

function useFullBleed(): boolean {
  return useMatches().some((m) => (m.handle as RouteHandle | undefined)?.fullBleed === true);
}

/** Top bar, the routed page and the footer, on every screen. */
export function AppLayout() {
  const fullBleed = useFullBleed();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <TopBar />
      <Box component="main" sx={{ flexGrow: 1, display: 'flex', flexDirection: 'column' }}>
        {fullBleed ? (
          <Outlet />
        ) : (
          <Container
            maxWidth={false}
            sx={{ py: 2, flexGrow: 1, display: 'flex', flexDirection: 'column', maxWidth: 1536 }}
          >
            <Outlet />
          </Container>
        )}
      </Box>
      <Footer />
      <ScrollRestoration />
    </Box>
  );
}
