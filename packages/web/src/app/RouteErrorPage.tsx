import { Alert, Box, Button } from '@mui/material';
import { useRouteError } from 'react-router-dom';

/** A page crashed while rendering: say so plainly instead of a blank screen. */
export function RouteErrorPage() {
  const error = useRouteError();
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Box sx={{ p: 4 }} data-testid="route-error">
      <Alert severity="error" action={<Button onClick={() => window.location.reload()}>Reload</Button>}>
        Something went wrong on this page: {message}
      </Alert>
    </Box>
  );
}
