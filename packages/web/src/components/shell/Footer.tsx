import VerifiedUserIcon from '@mui/icons-material/VerifiedUser';
import { Box, Button, Stack } from '@mui/material';
import { externalLinks } from '../../lib/routes/paths';

const LINKS = [
  { label: 'Docs', href: externalLinks.docs },
  { label: 'OpenTelemetry', href: externalLinks.openTelemetry },
  { label: 'Instrumentations', href: externalLinks.instrumentations },
  { label: 'Chat', href: externalLinks.chat },
  { label: 'GitHub', href: externalLinks.github },
];

/** Spec §1: enterprise offer, documentation, OpenTelemetry, instrumentations, chat and source. */
export function Footer() {
  return (
    <Box
      component="footer"
      sx={{ bgcolor: '#FAFAFA', borderTop: '1px solid #0000001f', py: 1.5, px: 2 }}
      data-testid="footer"
    >
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{ flexWrap: 'wrap', justifyContent: 'center', alignItems: 'center' }}
      >
        <Button
          href={externalLinks.enterprise}
          target="_blank"
          rel="noopener"
          size="small"
          variant="contained"
          startIcon={<VerifiedUserIcon />}
          sx={{ bgcolor: '#D84315', '&:hover': { bgcolor: '#BF360C' } }}
        >
          Enterprise
        </Button>
        {LINKS.map((link) => (
          <Button key={link.label} href={link.href} target="_blank" rel="noopener" size="small" color="inherit">
            {link.label}
          </Button>
        ))}
      </Stack>
    </Box>
  );
}
