import {
  Autocomplete,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useState } from 'react';

/**
 * Rename a dashboard and set its tags (spec §5: a name is required; the button stays disabled until
 * there is one). Tags are typed and taken with Enter; the dashboards page filters by them.
 */
export function NameDialog(props: {
  title: string;
  action: string;
  initial?: string;
  initialTags?: string[];
  busy?: boolean;
  error?: string;
  onSubmit: (name: string, tags: string[]) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(props.initial ?? '');
  const [tags, setTags] = useState<string[]>(props.initialTags ?? []);
  const valid = name.trim() !== '';
  return (
    <Dialog open onClose={props.onClose} maxWidth="xs" fullWidth data-testid="dashboard-name-dialog">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) props.onSubmit(name.trim(), tags);
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
          <Autocomplete<string, true, false, true>
            multiple
            freeSolo
            options={[]}
            value={tags}
            onChange={(_e, next) => setTags([...new Set(next.map((t) => t.trim()).filter(Boolean))])}
            renderValue={(selected, getItemProps) =>
              selected.map((t, index) => {
                const { key, ...rest } = getItemProps({ index });
                return <Chip key={key} size="small" label={t} {...rest} />;
              })
            }
            renderInput={(p) => (
              <TextField
                {...p}
                label="Tags"
                helperText="Type a tag and press Enter"
                sx={{ mt: 2 }}
                slotProps={{
                  ...p.slotProps,
                  htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'dashboard-tags-input' },
                }}
              />
            )}
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
