import SearchIcon from '@mui/icons-material/Search';
import { InputAdornment, TextField } from '@mui/material';
import { useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { searchTarget } from './searchTarget';

/** Spec §2.2 top-bar search: acts on Enter, then clears itself. */
export function AppSearch({ projectId }: { projectId: number | undefined }) {
  const [text, setText] = useState('');
  const navigate = useNavigate();

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    const target = searchTarget(text, projectId);
    if (!target) return;
    navigate(target);
    setText('');
  };

  return (
    <TextField
      value={text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={onKeyDown}
      placeholder="Search or jump to trace id..."
      size="small"
      sx={{ width: { xs: 180, md: 280 }, '@media (min-width: 1280px)': { width: 400 }, minWidth: 120, flexShrink: 1, '& .MuiOutlinedInput-root': { bgcolor: '#F5F5F5' }, '& fieldset': { border: 'none' } }}
      slotProps={{
        input: { startAdornment: <InputAdornment position="start"><SearchIcon fontSize="small" /></InputAdornment> },
        htmlInput: { 'data-testid': 'app-search', 'aria-label': 'Search or jump to trace id' },
      }}
    />
  );
}
