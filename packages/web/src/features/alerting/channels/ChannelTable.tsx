import type { NotifChannel } from '@lantern/shared';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import PauseIcon from '@mui/icons-material/Pause';
import PlayIcon from '@mui/icons-material/PlayArrow';
import { IconButton, Link, Stack, Table, TableBody, TableCell, TableHead, TableRow, Tooltip } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { Pager, usePager } from '../../../components/Pager';
import { paths } from '../../../lib/routes/paths';
import { CHANNEL_TYPE_LABELS } from './channelForm';
import { ChannelStateDot, DeliverySummary } from './ChannelDelivery';

export interface ChannelTableProps {
  projectId: number;
  channels: NotifChannel[];
  busyId: number | null;
  onTogglePause: (c: NotifChannel) => void;
  onDelete: (c: NotifChannel) => void;
}

/** Name, type, state, delivery and the row actions; the footer only when there are more than 10 rows (spec §9). */
export function ChannelTable({ projectId, channels, busyId, onTogglePause, onDelete }: ChannelTableProps) {
  const pager = usePager(channels.length, 10);
  const rows = channels.slice(pager.start, pager.end);
  return (
    <>
      <Table size="small" data-testid="channel-table">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell sx={{ width: 140 }}>Type</TableCell>
            <TableCell sx={{ width: 130 }}>State</TableCell>
            <TableCell>Delivery</TableCell>
            <TableCell sx={{ width: 130 }} align="right">
              Actions
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((c) => {
            const pausable = c.state === 'delivering';
            const editPath = paths.channel(projectId, c.type, c.id);
            return (
              <TableRow key={c.id} hover data-testid="channel-row" data-channel-id={c.id} data-channel-name={c.name}>
                <TableCell>
                  <Link
                    component={RouterLink}
                    to={editPath}
                    underline="hover"
                    sx={{ fontWeight: 500 }}
                    data-testid="channel-name"
                  >
                    {c.name}
                  </Link>
                </TableCell>
                <TableCell data-testid="channel-type">{CHANNEL_TYPE_LABELS[c.type]}</TableCell>
                <TableCell>
                  <ChannelStateDot state={c.state} />
                </TableCell>
                <TableCell>
                  <DeliverySummary channel={c} now={Date.now()} />
                </TableCell>
                <TableCell align="right">
                  <Stack direction="row" spacing={0.5} sx={{ justifyContent: 'flex-end' }}>
                    <Tooltip disableInteractive title={pausable ? 'Pause' : 'Unpause'}>
                      <span>
                        <IconButton
                          size="small"
                          disabled={busyId === c.id}
                          onClick={() => onTogglePause(c)}
                          data-testid={pausable ? 'channel-pause' : 'channel-unpause'}
                        >
                          {pausable ? <PauseIcon fontSize="small" /> : <PlayIcon fontSize="small" />}
                        </IconButton>
                      </span>
                    </Tooltip>
                    <Tooltip disableInteractive title="Edit">
                      <IconButton size="small" component={RouterLink} to={editPath} data-testid="channel-edit">
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip disableInteractive title="Delete">
                      <span>
                        <IconButton
                          size="small"
                          disabled={busyId === c.id}
                          onClick={() => onDelete(c)}
                          data-testid="channel-delete"
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </Stack>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
      {channels.length > 10 && <Pager pager={pager} testId="channel-pager" />}
    </>
  );
}
