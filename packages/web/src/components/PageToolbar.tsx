import { Box, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/** The light-blue title strip that opens every page and card section. */
export function PageToolbar({ title, children, testId }: { title: ReactNode; children?: ReactNode; testId?: string }) {
  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 2, px: 2, minHeight: 48, bgcolor: '#E1F5FE', borderRadius: 1 }}
      data-testid={testId}
    >
      <Typography variant="h6" component="h1" sx={{ fontSize: '1.1rem', fontWeight: 500 }}>
        {title}
      </Typography>
      <Box sx={{ flexGrow: 1 }} />
      {children}
    </Box>
  );
}
