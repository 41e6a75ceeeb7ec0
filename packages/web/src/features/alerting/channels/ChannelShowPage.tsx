import { ChannelType, type NotifChannel } from '@lantern/shared';
import PauseIcon from '@mui/icons-material/Pause';
import PlayIcon from '@mui/icons-material/PlayArrow';
import { Alert, Breadcrumbs, Button, Card, CardContent, Grid, Link, Skeleton, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { useSnackbar } from '../../../components/feedback/SnackbarProvider';
import { PageToolbar } from '../../../components/PageToolbar';
import { isApiError } from '../../../lib/api/apiClient';
import { paths } from '../../../lib/routes/paths';
import { useProjectIdParam } from '../../../lib/routes/useProjectIdParam';
import { useProject } from '../../projects/projectsApi';
import { CHANNEL_TYPE_LABELS } from './channelForm';
import { ChannelForm } from './ChannelForm';
import { useChannel, useSetChannelState } from './channelsApi';
import { DeliveryDetails } from './ChannelDelivery';
import { TestNotificationButton } from './TestNotificationButton';
import { WebhookHelp } from './WebhookHelp';
import { usePageTitle } from '../../../components/shell/usePageTitle';

function DeliveryCard({ projectId, channel, unsaved }: { projectId: number; channel: NotifChannel; unsaved: boolean }) {
  const setState = useSetChannelState(projectId);
  const pausable = channel.state === 'delivering';
  return (
    <Card variant="outlined" data-testid="channel-delivery-card">
      <CardContent>
        <Stack spacing={2}>
          <Stack direction="row" sx={{ alignItems: 'center' }}>
            <Typography variant="subtitle1" sx={{ fontWeight: 500, flexGrow: 1 }}>
              Delivery
            </Typography>
            <Button
              size="small"
              startIcon={pausable ? <PauseIcon /> : <PlayIcon />}
              loading={setState.isPending}
              onClick={() => setState.mutate({ id: channel.id, paused: pausable })}
              data-testid={pausable ? 'channel-pause' : 'channel-unpause'}
            >
              {pausable ? 'Pause' : 'Unpause'}
            </Button>
          </Stack>
          <DeliveryDetails channel={channel} now={Date.now()} />
          {channel.state === 'disabled' && (
            <Alert severity="warning">
              Lantern disabled this channel after repeated permanent failures. Fix the URL, then unpause it.
            </Alert>
          )}
          <TestNotificationButton projectId={projectId} channel={channel} unsaved={unsaved} />
        </Stack>
      </CardContent>
    </Card>
  );
}

/** NotifChannelShow{Slack,Webhook,Alertmanager} (spec §2.11): the form in a card, and the channel's delivery. */
export function ChannelShowPage() {
  const projectId = useProjectIdParam();
  const params = useParams();
  const parsedType = ChannelType.safeParse(params.channelType);
  const type = parsedType.success ? parsedType.data : undefined;
  const project = useProject(projectId);
  const channel = useChannel(projectId, type, params.channelId);
  const snackbar = useSnackbar();
  // Whether the form has edits not saved yet: the test notification sends the saved channel.
  const [edited, setEdited] = useState(false);

  usePageTitle(channel.data?.name ?? 'Notification channel');

  if (projectId === undefined) return null;
  // A channel opened under another type's path is not found, like any other unknown channel, or
  // another project's (403).
  const wrongType = type === undefined || (channel.data !== undefined && channel.data.type !== type);
  const notFound = wrongType || isApiError(channel.error, 404) || isApiError(channel.error, 403);

  return (
    <Stack spacing={2} sx={{ maxWidth: 1400 }} data-testid="channel-show">
      <PageToolbar
        title={
          <Breadcrumbs data-testid="channel-breadcrumbs" sx={{ fontSize: 'inherit' }}>
            <Link
              component={RouterLink}
              to={paths.projectSettings(projectId)}
              underline="hover"
              color="inherit"
              data-testid="channel-breadcrumb-project"
              data-loaded={String(project.data !== undefined)}
            >
              {project.data?.project.name ?? 'Project'}
            </Link>
            <Link
              component={RouterLink}
              to={paths.channels(projectId)}
              underline="hover"
              color="inherit"
              data-testid="channel-breadcrumb-list"
            >
              Channels
            </Link>
            <Typography component="span" color="text.primary" sx={{ fontSize: 'inherit', fontWeight: 500 }}>
              {type ? CHANNEL_TYPE_LABELS[type] : 'Channel'}
            </Typography>
          </Breadcrumbs>
        }
      />
      {notFound ? (
        <Alert severity="warning" data-testid="channel-not-found">
          This notification channel does not exist: it may have been deleted.{' '}
          <Link component={RouterLink} to={paths.channels(projectId)}>
            Back to the channels
          </Link>
        </Alert>
      ) : channel.error ? (
        <Alert severity="error" data-testid="channel-load-error">
          {channel.error.message}
        </Alert>
      ) : channel.isPending ? (
        <Skeleton variant="rectangular" height={320} />
      ) : (
        <>
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 7 }}>
              <Card variant="outlined">
                <CardContent>
                  <ChannelForm
                    key={channel.data.id}
                    projectId={projectId}
                    type={channel.data.type}
                    channel={channel.data}
                    onSaved={() => snackbar.notifySuccess('The notification channel has been saved')}
                    onDirtyChange={setEdited}
                  />
                </CardContent>
              </Card>
            </Grid>
            <Grid size={{ xs: 12, md: 5 }}>
              <DeliveryCard key={channel.data.id} projectId={projectId} channel={channel.data} unsaved={edited} />
            </Grid>
          </Grid>
          {type === 'webhook' && (
            <Card variant="outlined">
              <CardContent>
                <WebhookHelp />
              </CardContent>
            </Card>
          )}
        </>
      )}
    </Stack>
  );
}
