import { Box, List, ListItemButton, ListItemText, TextField, Typography } from '@mui/material';
import type { ProjectSummary } from '@lantern/shared';
import { useState, type KeyboardEvent } from 'react';

/** The searchable list inside the project picker; Enter picks the first match. */
export function ProjectList({
  projects,
  currentId,
  onChoose,
}: {
  projects: ProjectSummary[];
  currentId: number | undefined;
  onChoose: (p: ProjectSummary) => void;
}) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const matches = projects.filter((p) => p.name.toLowerCase().includes(needle) || String(p.id) === needle);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || matches.length === 0) return;
    // Without this the Enter's keypress lands on the picker button that regains focus, reopening the picker.
    e.preventDefault();
    onChoose(matches[0]);
  };

  return (
    <Box sx={{ p: 1, width: 300 }} data-testid="project-selector">
      <TextField
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Select a project"
        size="small"
        fullWidth
        autoFocus
        slotProps={{ htmlInput: { 'data-testid': 'project-filter' } }}
      />
      <List dense sx={{ maxHeight: 320, overflowY: 'auto' }}>
        {matches.map((p) => (
          <ListItemButton
            key={p.id}
            selected={p.id === currentId}
            onClick={() => onChoose(p)}
            data-testid="project-option"
          >
            <ListItemText primary={p.name} secondary={`#${p.id}`} />
          </ListItemButton>
        ))}
      </List>
      {matches.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ px: 1, pb: 1 }}>
          No matching projects
        </Typography>
      )}
    </Box>
  );
}
