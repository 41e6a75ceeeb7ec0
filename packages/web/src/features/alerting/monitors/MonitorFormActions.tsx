import { Alert, Button, Stack } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../lib/routes/paths';

/** The end of both monitor forms: the server's refusal, Create / Save, and Cancel back to the list. */
export function MonitorFormActions({
  projectId,
  isNew,
  saving,
  error,
}: {
  projectId: number;
  isNew: boolean;
  saving: boolean;
  error?: string;
}) {
  const navigate = useNavigate();
  return (
    <>
      {error && <Alert severity="error">{error}</Alert>}
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={saving} data-testid="monitor-save">
          {isNew ? 'Create monitor' : 'Save'}
        </Button>
        <Button onClick={() => void navigate(paths.monitors(projectId))}>Cancel</Button>
      </Stack>
    </>
  );
}
