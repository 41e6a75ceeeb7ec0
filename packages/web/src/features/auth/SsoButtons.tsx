import { Button, Divider, Stack } from '@mui/material';
import { useSsoMethods } from './authApi';

/** Spec §2.3: one button per single-sign-on method, then an 'or' divider; nothing when there are none. */
export function SsoButtons() {
  const { data } = useSsoMethods();
  const methods = data?.methods ?? [];
  if (methods.length === 0) return null;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="sso-methods">
      {methods.map((m) => (
        <Button key={m.id || m.url} href={m.url} variant="contained" size="large" fullWidth sx={{ bgcolor: '#C62828', '&:hover': { bgcolor: '#B71C1C' } }}>
          {m.name || 'OpenID Connect'}
        </Button>
      ))}
      <Divider sx={{ pt: 1 }}>or</Divider>
    </Stack>
  );
}
