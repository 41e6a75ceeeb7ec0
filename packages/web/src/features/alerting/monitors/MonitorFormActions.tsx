import { Alert, Button, Stack } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { paths } from '../../../lib/routes/paths';

/** The end of both monitor forms: the server's refusal or why Save waits, Create / Save, and Cancel back to the list. */
export function MonitorFormActions({
  projectId,
  isNew,
  saving,
  error,
  note,
}: {
  projectId: number;
  isNew: boolean;
  saving: boolean;
  error?: string;
  /** Why Save did not send the form although its fields are valid (e.g. the query's columns are not known yet). */
  note?: string;
}) {
  const navigate = useNavigate();
  return (
    <>
      {error && <Alert severity="error">{error}</Alert>}
      {!error && note && (
        <Alert severity="warning" data-testid="monitor-save-note">
          {note}
        </Alert>
      )}
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={saving} data-testid="monitor-save">
          {isNew ? 'Create monitor' : 'Save'}
        </Button>
        <Button onClick={() => void navigate(paths.monitors(projectId))}>Cancel</Button>
      </Stack>
    </>
  );
}
