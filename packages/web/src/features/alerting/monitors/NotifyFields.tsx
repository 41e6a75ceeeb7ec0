import { Autocomplete, Checkbox, FormControlLabel, Stack, TextField } from '@mui/material';
import { useChannels } from '../channels/channelsApi';

/** The notification part of both monitor forms: everyone by e-mail, and the channels (spec platform §2.9, §2.10). */
export function NotifyFields(props: {
  projectId: number;
  everyone: boolean;
  onEveryone: (v: boolean) => void;
  channelIds: number[];
  onChannelIds: (ids: number[]) => void;
}) {
  const channels = useChannels(props.projectId);
  const options = channels.data ?? [];
  return (
    <Stack spacing={1}>
      <FormControlLabel
        control={
          <Checkbox
            checked={props.everyone}
            onChange={(e) => props.onEveryone(e.target.checked)}
            data-testid="notify-everyone"
          />
        }
        label="Notify everyone by email"
      />
      <Autocomplete
        multiple
        size="small"
        options={options}
        loading={channels.isPending}
        value={options.filter((c) => props.channelIds.includes(Number(c.id)))}
        onChange={(_e, v) => props.onChannelIds(v.map((c) => Number(c.id)))}
        getOptionLabel={(c) => `${c.name} (${c.type})`}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        noOptionsText="No channels yet: create one on the Channels tab"
        renderInput={(p) => (
          <TextField
            {...p}
            label="Notification channels"
            slotProps={{ ...p.slotProps, htmlInput: { ...p.slotProps.htmlInput, 'data-testid': 'monitor-channels' } }}
          />
        )}
      />
    </Stack>
  );
}
