import { Box } from '@mui/material';
import { CodeBlock } from './CodeBlock';
import { CopyButton } from './CopyButton';

/** A block of configuration or code with a copy button in its corner. */
export function CopySnippet({ code, testId }: { code: string; testId: string }) {
  return (
    <Box sx={{ position: 'relative' }}>
      <CodeBlock code={code} testId={testId} />
      <Box sx={{ position: 'absolute', top: 4, right: 4 }}>
        <CopyButton text={code} testId={`${testId}-copy`} />
      </Box>
    </Box>
  );
}
