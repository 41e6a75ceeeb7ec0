import { Alert, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';

/** Shown when the project has no dashboards yet (spec Dashboard page): name it, Create. */
export function NewDashboardForm({
  busy,
  error,
  onCreate,
}: {
  busy: boolean;
  error?: string;
  onCreate: (name: string) => void;
}) {
  const [name, setName] = useState('');
  const valid = name.trim() !== '';
  return (
    <Card variant="outlined" sx={{ maxWidth: 560 }} data-testid="new-dashboard-form">
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Create your first dashboard
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          A dashboard shows your metrics as a table (one row per service, host or any attribute) and as a grid of
          charts. Built-in dashboards also appear here once their metrics arrive.
        </Typography>
        <Stack
          component="form"
          direction="row"
          spacing={1}
          onSubmit={(e) => {
            e.preventDefault();
            if (valid) onCreate(name.trim());
          }}
        >
          <TextField
            size="small"
            fullWidth
            label="Dashboard name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'new-dashboard-name' } }}
          />
          <Button type="submit" variant="contained" disabled={!valid || busy} data-testid="new-dashboard-create">
            Create
          </Button>
        </Stack>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}
