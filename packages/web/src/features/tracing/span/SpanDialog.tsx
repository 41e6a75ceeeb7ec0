import CloseIcon from '@mui/icons-material/Close';
import { Dialog, DialogContent, IconButton } from '@mui/material';
import type { Span } from '@lantern/shared';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { SpanCard } from './SpanCard';

/** The span card in a 1280px dialog (spec §9) that closes when the route changes. */
export function SpanDialog({
  span,
  onClose,
  ...cardProps
}: { span: Span | null; onClose: () => void } & Omit<Parameters<typeof SpanCard>[0], 'span'>) {
  const location = useLocation();
  const opened = useRef(location.pathname);
  useEffect(() => {
    if (location.pathname !== opened.current) {
      opened.current = location.pathname;
      onClose();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [location.pathname]);
  return (
    <Dialog
      open={span !== null}
      onClose={onClose}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: 1280 } } }}
      data-testid="span-dialog"
    >
      <IconButton
        onClick={onClose}
        sx={{ position: 'absolute', right: 8, top: 8, zIndex: 1 }}
        aria-label="Close"
        data-testid="span-dialog-close"
      >
        <CloseIcon />
      </IconButton>
      <DialogContent sx={{ pt: 6 }}>{span && <SpanCard span={span} {...cardProps} />}</DialogContent>
    </Dialog>
  );
}
