import ArrowDropDownIcon from '@mui/icons-material/ArrowDropDown';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import { Button, Menu, MenuItem, Tooltip } from '@mui/material';
import { useState } from 'react';
import { REFRESH_OPTIONS } from '../../lib/time/autoRefresh';
import { useAutoRefresh, type AutoRefreshState } from './useAutoRefresh';

/** "⟳ Off ▾" with Off / 10 s / 30 s / 1 m / 5 m: the page refreshes itself at that interval. */
export function AutoRefreshPicker({ state }: { state: AutoRefreshState }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const pick = (value: string) => {
    setAnchor(null);
    state.set(value);
  };
  return (
    <>
      <Tooltip title="Auto-refresh (paused while the tab is hidden)">
        <Button
          size="small"
          color={state.option ? 'primary' : 'inherit'}
          startIcon={<AutorenewIcon />}
          endIcon={<ArrowDropDownIcon />}
          onClick={(e) => setAnchor(e.currentTarget)}
          data-testid="auto-refresh"
          data-refresh={state.option?.value ?? 'off'}
          sx={{ textTransform: 'none' }}
        >
          {state.option?.text ?? 'Off'}
        </Button>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem dense selected={!state.option} onClick={() => pick('')} data-testid="auto-refresh-option">
          Off
        </MenuItem>
        {REFRESH_OPTIONS.map((o) => (
          <MenuItem
            key={o.value}
            dense
            selected={o.value === state.option?.value}
            onClick={() => pick(o.value)}
            data-testid="auto-refresh-option"
          >
            Every {o.text}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** The picker with its own timer, for a toolbar whose refresh needs no clock of its own. */
export function AutoRefresh({ onRefresh }: { onRefresh: () => void }) {
  return <AutoRefreshPicker state={useAutoRefresh(onRefresh)} />;
}
