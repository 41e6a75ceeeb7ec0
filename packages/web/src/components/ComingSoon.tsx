import ConstructionIcon from '@mui/icons-material/Construction';
import { Box, Card, CardContent, Chip, List, ListItem, ListItemText, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { PageToolbar } from './PageToolbar';

/**
 * An honest placeholder for a section that a later release delivers: it names what will be here
 * and, optionally, what already works elsewhere, instead of showing an empty or fake screen.
 */
export function ComingSoon({
  title,
  summary,
  planned,
  children,
}: {
  title: string;
  summary: string;
  planned: string[];
  children?: ReactNode;
}) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }} data-testid="coming-soon">
      <PageToolbar title={title}>
        <Chip icon={<ConstructionIcon />} label="Coming soon" size="small" color="warning" variant="outlined" />
      </PageToolbar>
      <Card variant="outlined">
        <CardContent>
          <Typography sx={{ mb: 1 }}>{summary}</Typography>
          <Typography variant="subtitle2" color="text.secondary">
            This page is not built yet. It will show:
          </Typography>
          <List dense>
            {planned.map((item) => (
              <ListItem key={item} sx={{ py: 0 }}>
                <ListItemText primary={`• ${item}`} />
              </ListItem>
            ))}
          </List>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}
