import { Box } from '@mui/material';
import { CopyButton } from './CopyButton';

/** Preformatted text (shell snippets, YAML) with a copy button in the corner. */
export function CodeBlock({ code, testId }: { code: string; testId?: string }) {
  return (
    <Box sx={{ position: 'relative', bgcolor: '#F5F5F5', borderRadius: 1, border: '1px solid #0000001f' }}>
      <Box
        component="pre"
        data-testid={testId}
        sx={{
          m: 0,
          p: 2,
          pr: 6,
          overflowX: 'auto',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace',
          fontSize: 13,
        }}
      >
        {code}
      </Box>
      <Box sx={{ position: 'absolute', top: 6, right: 6 }}>
        <CopyButton text={code} />
      </Box>
    </Box>
  );
}
