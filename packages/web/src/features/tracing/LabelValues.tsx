import { Box, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** The row of small-caption label over value columns under a trace or span title. */
export function LabelValues({ items }: { items: { label: string; value: ReactNode; testId?: string }[] }) {
  return (
    <Stack direction="row" spacing={4} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {items.map((item) => (
        <Box key={item.label} data-testid={item.testId}>
          <Typography variant="caption" color="text.secondary" component="div">
            {item.label}
          </Typography>
          <Typography variant="body1" component="div">
            {item.value}
          </Typography>
        </Box>
      ))}
    </Stack>
  );
}
