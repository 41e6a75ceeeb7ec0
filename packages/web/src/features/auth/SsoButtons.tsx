import { Box, Button, Divider, Stack, Tooltip } from '@mui/material';
import { useSsoMethods } from './authApi';

/**
 * Spec §2.3: one button per single-sign-on method, labelled with the method's name (or 'OpenID
 * Connect'), then an 'or' divider; nothing when there are none. A method whose provider cannot be
 * reached is shown disabled, marked '(unavailable)' so that it does not read as a working button
 * whose colour is off, with the reason in its tooltip (docs/decisions/sso-and-sessions.md: such
 * providers are listed, not hidden). `next` is the page the round trip ends on.
 */
export function SsoButtons({ next = '/' }: { next?: string }) {
  const { data } = useSsoMethods();
  const methods = data?.methods ?? [];
  if (methods.length === 0) return null;
  const startUrl = (url: string) =>
    next === '/' ? url : `${url}${url.includes('?') ? '&' : '?'}return_to=${encodeURIComponent(next)}`;
  return (
    <Stack spacing={1} sx={{ mb: 2 }} data-testid="sso-methods">
      {methods.map((m) => {
        const label = m.name || 'OpenID Connect';
        if (m.available) {
          return (
            <Button
              key={m.id || m.url}
              href={startUrl(m.url)}
              variant="contained"
              size="large"
              fullWidth
              data-testid={`sso-${m.id}`}
              sx={{ bgcolor: '#C62828', '&:hover': { bgcolor: '#B71C1C' } }}
            >
              {label}
            </Button>
          );
        }
        return (
          <Tooltip key={m.id || m.url} title={m.reason ?? 'Unavailable'}>
            {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
            <Box>
              <Button variant="contained" size="large" fullWidth disabled data-testid={`sso-${m.id}`}>
                {label} (unavailable)
              </Button>
            </Box>
          </Tooltip>
        );
      })}
      <Divider sx={{ pt: 1 }}>or</Divider>
    </Stack>
  );
}
