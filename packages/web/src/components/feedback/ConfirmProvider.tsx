import { AppBar, Button, Dialog, DialogActions, DialogContent, Toolbar, Typography } from '@mui/material';
import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
}

/** Resolves true on Yes, false on No, Esc or a click outside. */
export type Confirm = (opts: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

/** The app-wide yes/no dialog (spec §2.2), promise based so callers read top to bottom. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);

  const confirm = useCallback<Confirm>((opts) => {
    resolver.current?.(false);
    setRequest(opts);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setRequest(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <Dialog
        open={request !== null}
        onClose={() => answer(false)}
        maxWidth={false}
        slotProps={{ paper: { sx: { width: 400 } } }}
      >
        <AppBar position="static" elevation={0}>
          <Toolbar variant="dense">
            <Typography variant="subtitle1" component="h2" data-testid="confirm-title">
              {request?.title}
            </Typography>
          </Toolbar>
        </AppBar>
        <DialogContent sx={{ pt: 2 }} data-testid="confirm-message">
          {request?.message}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => answer(false)} data-testid="confirm-no">
            No
          </Button>
          <Button variant="contained" onClick={() => answer(true)} data-testid="confirm-yes" autoFocus>
            Yes
          </Button>
        </DialogActions>
      </Dialog>
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Confirm {
  const ctx = useContext(ConfirmContext);
  if (!ctx) throw new Error('useConfirm must be used inside <ConfirmProvider>');
  return ctx;
}
