import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { useState } from 'react';

/** Name a new dashboard or rename one (spec §5: a name is required; the button stays disabled until there is one). */
export function NameDialog(props: {
  title: string;
  action: string;
  initial?: string;
  busy?: boolean;
  error?: string;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.initial ?? '');
  const valid = name.trim() !== '';
  return (
    <Dialog open onClose={props.onClose} maxWidth="xs" fullWidth data-testid="dashboard-name-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) props.onSubmit(name.trim());
        }}
      >
        <DialogTitle>{props.title}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            label="Dashboard name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={Boolean(props.error)}
            helperText={props.error}
            sx={{ mt: 1 }}
            slotProps={{ htmlInput: { 'data-testid': 'dashboard-name-input', maxLength: 500 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={!valid || props.busy} data-testid="dashboard-name-submit">
            {props.action}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
