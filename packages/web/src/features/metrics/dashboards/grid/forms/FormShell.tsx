import CloseIcon from '@mui/icons-material/Close';
import { Alert, Box, Button, Dialog, DialogActions, IconButton, Toolbar, Typography } from '@mui/material';
import type { ReactNode } from 'react';

/**
 * The layout every dashboard form shares (reference frontend §1.3.13): a title bar with a close
 * button, the fields on the left, the live preview of the real query on the right (without one
 * yet: "Select a metric first..."), and Cancel / Create or Save at the bottom (Save only when
 * editable).
 */
export function FormShell({
  title,
  width = 1200,
  preview,
  children,
  error,
  editable,
  isNew,
  saving,
  onSave,
  onClose,
  testId,
}: {
  title: string;
  width?: number;
  /** Undefined until there is something to preview (no metric picked yet). */
  preview: ReactNode | undefined;
  children: ReactNode;
  error?: string;
  editable: boolean;
  isNew: boolean;
  saving: boolean;
  onSave: () => void;
  onClose: () => void;
  testId: string;
}) {
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: width } } }}
      data-testid={testId}
    >
      <Toolbar variant="dense" sx={{ bgcolor: 'grey.50', borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="h6" sx={{ flex: 1 }}>
          {title}
        </Typography>
        <IconButton onClick={onClose} aria-label="Close">
          <CloseIcon />
        </IconButton>
      </Toolbar>
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (editable) onSave();
        }}
        sx={{ display: 'flex', gap: 3, p: 2, flexWrap: { xs: 'wrap', md: 'nowrap' }, alignItems: 'flex-start' }}
      >
        <Box sx={{ flex: '0 0 460px', maxWidth: '100%', display: 'flex', flexDirection: 'column', gap: 2 }}>
          {children}
        </Box>
        <Box sx={{ flex: 1, minWidth: 0, position: { md: 'sticky' }, top: 0 }} data-testid="form-preview">
          <Typography variant="overline" color="text.secondary">
            Preview
          </Typography>
          {preview ?? <Typography color="text.secondary">Select a metric first...</Typography>}
        </Box>
        <button type="submit" hidden />
      </Box>
      {error && (
        <Alert severity="error" sx={{ mx: 2 }} data-testid="form-error">
          {error}
        </Alert>
      )}
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        {editable && (
          <Button variant="contained" onClick={onSave} disabled={saving} data-testid="form-save">
            {isNew ? 'Create' : 'Save'}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
