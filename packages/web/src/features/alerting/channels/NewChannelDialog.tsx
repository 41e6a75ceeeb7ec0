import type { ChannelType, NotifChannel } from '@lantern/shared';
import CloseIcon from '@mui/icons-material/Close';
import { Dialog, DialogContent, DialogTitle, IconButton } from '@mui/material';
import { CHANNEL_TYPE_LABELS } from './channelForm';
import { ChannelForm } from './ChannelForm';
import { WebhookHelp } from './WebhookHelp';

/** Spec §2.11: 'New {type} notification channel', max width 700. */
export function NewChannelDialog({
  projectId,
  type,
  onClose,
  onCreated,
}: {
  projectId: number;
  type: ChannelType | null;
  onClose: () => void;
  onCreated: (c: NotifChannel) => void;
}) {
  return (
    <Dialog
      open={type !== null}
      onClose={onClose}
      fullWidth
      maxWidth={false}
      slotProps={{ paper: { sx: { maxWidth: 700 } } }}
      data-testid="new-channel-dialog"
    >
      {type && (
        <>
          <DialogTitle sx={{ pr: 6 }} data-testid="new-channel-title">
            New {CHANNEL_TYPE_LABELS[type]} notification channel
          </DialogTitle>
          <IconButton aria-label="Close" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
            <CloseIcon />
          </IconButton>
          <DialogContent dividers>
            <ChannelForm
              key={type}
              projectId={projectId}
              type={type}
              onSaved={onCreated}
              onCancel={onClose}
              footer={type === 'webhook' ? <WebhookHelp /> : undefined}
            />
          </DialogContent>
        </>
      )}
    </Dialog>
  );
}
