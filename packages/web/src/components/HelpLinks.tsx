import { Button, Stack } from '@mui/material';
import { externalLinks } from '../lib/routes/paths';

/** Where to look for help; shown on the not-found page and under help cards. */
export function HelpLinks() {
  const links = [
    { label: 'Documentation', href: externalLinks.docs },
    { label: 'OpenTelemetry', href: externalLinks.openTelemetry },
    { label: 'Ask a question', href: externalLinks.chat },
    { label: 'Source code', href: externalLinks.github },
  ];
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{ flexWrap: 'wrap', justifyContent: 'center' }}
      data-testid="help-links"
    >
      {links.map((link) => (
        <Button key={link.label} href={link.href} target="_blank" rel="noopener" variant="outlined" size="small">
          {link.label}
        </Button>
      ))}
    </Stack>
  );
}
