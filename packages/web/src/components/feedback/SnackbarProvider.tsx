import { Alert, Button, Snackbar } from '@mui/material';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';

/** Spec §9: snackbar and toast time-out. */
export const SNACKBAR_TIMEOUT_MS = 10_000;

type Severity = 'success' | 'error' | 'info';

interface Notice {
  id: number;
  message: string;
  severity: Severity;
}

export interface Snackbar {
  notify(message: string, severity?: Severity): void;
  notifyError(message: string): void;
  notifySuccess(message: string): void;
  /** Drops the notification shown, if any (sign-out: the next user must not see the last one's). */
  clear(): void;
}

const SnackbarContext = createContext<Snackbar | null>(null);

/** One app-wide notification at the top of the screen; a new one replaces the old one. */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const [open, setOpen] = useState(false);

  const notify = useCallback((message: string, severity: Severity = 'info') => {
    setNotice({ id: Date.now(), message, severity });
    setOpen(true);
  }, []);
  const clear = useCallback(() => setOpen(false), []);
  const api = useMemo<Snackbar>(
    () => ({
      notify,
      notifyError: (m) => notify(m, 'error'),
      notifySuccess: (m) => notify(m, 'success'),
      clear,
    }),
    [notify, clear],
  );
  return (
    <SnackbarContext.Provider value={api}>
      {children}
      <Snackbar
        key={notice?.id}
        open={open}
        autoHideDuration={SNACKBAR_TIMEOUT_MS}
        onClose={(_e, reason) => reason !== 'clickaway' && clear()}
        anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      >
        <Alert
          data-testid="snackbar"
          variant="filled"
          severity={notice?.severity ?? 'info'}
          action={
            <Button color="inherit" size="small" onClick={clear} data-testid="snackbar-close">
              Close
            </Button>
          }
        >
          {notice?.message}
        </Alert>
      </Snackbar>
    </SnackbarContext.Provider>
  );
}

export function useSnackbar(): Snackbar {
  const ctx = useContext(SnackbarContext);
  if (!ctx) throw new Error('useSnackbar must be used inside <SnackbarProvider>');
  return ctx;
}
