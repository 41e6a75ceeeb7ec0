import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { textSearchWhere, tracingRoutes } from '@lantern/shared';
import { useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { api } from '../../lib/api/api';
import { toApiParams } from '../../lib/time/dateRange';
import { currentAppRange } from '../date/useDateRange';
import { searchAction, searchPath } from './searchTarget';

/**
 * Spec §2.2 top-bar search: acts on Enter, then clears itself. Free text first asks which systems
 * match it over the app's date range, so a search that finds only logs lands on the log groups.
 */
export function AppSearch({ projectId }: { projectId: number | undefined }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();

  const onKeyDown = async (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || busy) return;
    const action = searchAction(text, projectId);
    if (!action) return;
    if (action.kind === 'go') {
      void navigate(action.to);
      setText('');
      return;
    }
    setBusy(true);
    const query = { ...toApiParams(currentAppRange()), query: textSearchWhere(action.text) };
    const matched = await api(tracingRoutes.tracingSystems, { params: { projectId: action.projectId }, query })
      .then((r) => r.systems)
      .catch(() => null);
    setBusy(false);
    void navigate(searchPath(action.projectId, action.text, matched));
    setText('');
  };

  return (
    <TextField
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => void onKeyDown(e)}
      placeholder="Search or jump to trace id..."
      size="small"
      sx={{
        width: { xs: 180, md: 280 },
        '@media (min-width: 1280px)': { width: 400 },
        minWidth: 120,
        flexShrink: 1,
        '& .MuiOutlinedInput-root': { bgcolor: '#F5F5F5' },
        '& fieldset': { border: 'none' },
      }}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <SearchIcon fontSize="small" />
            </InputAdornment>
          ),
        },
        htmlInput: { 'data-testid': 'app-search', 'aria-label': 'Search or jump to trace id', 'aria-busy': busy },
      }}
    />
  );
}
