import { Box, Typography } from '@mui/material';
import { HelpLinks } from '../components/HelpLinks';
import { useNotFoundTitle } from '../components/shell/usePageTitle';

/** Spec §2.2 not-found text, then where to get help. */
export function NotFoundPage() {
  useNotFoundTitle();
  return (
    <Box sx={{ textAlign: 'center', py: 10 }} data-testid="not-found">
      <Typography variant="h4" component="h1" gutterBottom>
        Page not found
      </Typography>
      <Typography sx={{ mb: 3 }}>
        Sorry, the requested page can't be found. The development team has been notified.
      </Typography>
      <HelpLinks />
    </Box>
  );
}
