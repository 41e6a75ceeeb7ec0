import type { ChannelType, NotifChannel } from '@lantern/shared';
import AddIcon from '@mui/icons-material/Add';
import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import RefreshIcon from '@mui/icons-material/Refresh';
import { Alert, Box, Button, Card, Menu, MenuItem, Skeleton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useConfirm } from '../../../components/feedback/ConfirmProvider';
import { PageToolbar } from '../../../components/PageToolbar';
import { paths } from '../../../lib/routes/paths';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { CHANNEL_TYPE_LABELS } from './channelForm';
import { useChannels, useDeleteChannel, useSetChannelState } from './channelsApi';
import { ChannelTable } from './ChannelTable';
import { DeleteChannelMessage } from './DeleteChannelMessage';
import { NewChannelDialog } from './NewChannelDialog';
import { useFetchChannelMonitors } from '../monitors/monitorsApi';
import { usePageTitle } from '../../../components/shell/usePageTitle';

const CREATE_TYPES: ChannelType[] = ['slack', 'webhook', 'alertmanager'];

/** NotifChannelList (spec §2.11): the project's channels with their delivery state. */
export function ChannelListPage() {
  const projectId = useProjectIdParam();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const channels = useChannels(projectId);
  const setState = useSetChannelState(projectId);
  const remove = useDeleteChannel(projectId);
  const fetchMonitors = useFetchChannelMonitors(projectId);
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [creating, setCreating] = useState<ChannelType | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  usePageTitle('Notification channels');

  if (projectId === undefined) return null;

  const togglePause = (c: NotifChannel) => {
    setBusyId(c.id);
    setState.mutate({ id: c.id, paused: c.state === 'delivering' }, { onSettled: () => setBusyId(null) });
  };
  const del = async (c: NotifChannel) => {
    setBusyId(c.id);
    // Which monitors notify through it, asked now: the confirmation names them.
    const users = await fetchMonitors(c.id).then(
      (r) => ({ monitors: r.monitors, error: '' }),
      (e: unknown) => ({ monitors: [], error: e instanceof Error ? e.message : String(e) }),
    );
    setBusyId(null);
    if (!(await confirm({ title: 'Delete channel', message: <DeleteChannelMessage channel={c} {...users} /> }))) return;
    setBusyId(c.id);
    remove.mutate(c.id, { onSettled: () => setBusyId(null) });
  };
  const created = (c: NotifChannel) => {
    setCreating(null);
    void navigate(paths.channel(projectId, c.type, c.id));
  };

  return (
    <Stack spacing={1} data-testid="channel-list">
      <PageToolbar title="Notification channels">
        <Button
          variant="contained"
          size="small"
          startIcon={<AddIcon />}
          endIcon={<ArrowDropDownIcon />}
          onClick={(e) => setMenuAnchor(e.currentTarget)}
          data-testid="create-channel"
        >
          Create channel
        </Button>
        <Button
          size="small"
          startIcon={<RefreshIcon />}
          onClick={() => void channels.refetch()}
          loading={channels.isRefetching}
          data-testid="channels-reload"
        >
          Reload
        </Button>
      </PageToolbar>
      <Menu anchorEl={menuAnchor} open={menuAnchor !== null} onClose={() => setMenuAnchor(null)}>
        {CREATE_TYPES.map((t) => (
          <MenuItem
            key={t}
            onClick={() => {
              setMenuAnchor(null);
              setCreating(t);
            }}
            data-testid={`create-channel-${t}`}
          >
            {CHANNEL_TYPE_LABELS[t]}
          </MenuItem>
        ))}
      </Menu>
      <Card variant="outlined">
        {channels.isPending ? (
          <Skeleton variant="rectangular" height={160} />
        ) : channels.error ? (
          <Alert severity="error" data-testid="channels-error">
            {channels.error.message}
          </Alert>
        ) : channels.data.length === 0 ? (
          <Box sx={{ py: 6, textAlign: 'center' }}>
            <Typography color="text.secondary" data-testid="channels-empty">
              There are no notification channels
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              Channels send alert notifications to Slack, a webhook of your own or Prometheus Alertmanager.
            </Typography>
          </Box>
        ) : (
          <ChannelTable
            projectId={projectId}
            channels={channels.data}
            busyId={busyId}
            onTogglePause={togglePause}
            onDelete={(c) => void del(c)}
          />
        )}
      </Card>
      <NewChannelDialog projectId={projectId} type={creating} onClose={() => setCreating(null)} onCreated={created} />
    </Stack>
  );
}
