import {
  Alert,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Skeleton,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Dashboard } from '@lantern/shared';
import { useState } from 'react';
import { useCreateDashboard, useCreateFromTemplate, useDashboardTemplates } from './dashboardsApi';

/**
 * "New dashboard" (issue 41): an empty one by name, or one of the built-in templates from the
 * gallery (name, one line on what it shows, tags); a template's dashboard has all its panels, ready
 * for the metrics to arrive.
 */
export function NewDashboardDialog(props: {
  projectId: number;
  onCreated: (d: Dashboard) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState('');
  const create = useCreateDashboard(props.projectId);
  const fromTemplate = useCreateFromTemplate(props.projectId);
  const templates = useDashboardTemplates(props.projectId);
  const busy = create.isPending || fromTemplate.isPending;
  const error = (create.error ?? fromTemplate.error ?? templates.error)?.message;
  const done = (r: { dashboard: Dashboard }) => props.onCreated(r.dashboard);
  return (
    <Dialog open onClose={props.onClose} maxWidth="md" fullWidth data-testid="new-dashboard-dialog">
      <DialogTitle>New dashboard</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          direction="row"
          spacing={1}
          sx={{ mt: 1 }}
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) create.mutate(name.trim(), { onSuccess: done });
          }}
        >
          <TextField
            size="small"
            fullWidth
            autoFocus
            label="Empty dashboard named"
            value={name}
            onChange={(e) => setName(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'dashboard-name-input', maxLength: 500 } }}
          />
          <Button
            type="submit"
            variant="contained"
            disabled={!name.trim() || busy}
            data-testid="dashboard-name-submit"
            sx={{ flexShrink: 0 }}
          >
            Create
          </Button>
        </Stack>
        <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
          Or start from a template
        </Typography>
        {templates.isPending && <Skeleton variant="rectangular" height={120} />}
        <Stack
          direction="row"
          useFlexGap
          spacing={1.5}
          sx={{ flexWrap: 'wrap' }}
          data-testid="template-gallery"
          aria-busy={busy}
        >
          {templates.data?.templates.map((t) => (
            <Card key={t.id} variant="outlined" sx={{ width: 'calc(50% - 6px)' }}>
              <CardActionArea
                disabled={busy}
                onClick={() => fromTemplate.mutate(t.id, { onSuccess: done })}
                data-testid="template-card"
                data-template={t.id}
                sx={{ height: '100%' }}
              >
                <CardContent>
                  <Typography variant="subtitle1" component="div">
                    {t.name}
                  </Typography>
                  <Typography variant="body2" color="text.secondary" data-testid="template-description">
                    {t.description}
                  </Typography>
                  <Stack direction="row" spacing={0.5} sx={{ mt: 1 }}>
                    {t.tags.map((tag) => (
                      <Chip key={tag} size="small" label={tag} />
                    ))}
                  </Stack>
                </CardContent>
              </CardActionArea>
            </Card>
          ))}
        </Stack>
        {error && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="new-dashboard-error">
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
      </DialogActions>
    </Dialog>
  );
}
