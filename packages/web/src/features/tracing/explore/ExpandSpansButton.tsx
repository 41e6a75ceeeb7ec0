import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { IconButton, Tooltip } from '@mui/material';

/** The toggle that opens a group row into its spans (Groups and Timeseries tabs). */
export function ExpandSpansButton({ open, onToggle, testId }: { open: boolean; onToggle: () => void; testId: string }) {
  return (
    <Tooltip title={open ? 'Hide spans' : 'View spans'}>
      <IconButton size="small" onClick={onToggle} aria-expanded={open} data-testid={testId}>
        {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
      </IconButton>
    </Tooltip>
  );
}
