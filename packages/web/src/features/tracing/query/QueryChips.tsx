import AddIcon from '@mui/icons-material/Add';
import CloseIcon from '@mui/icons-material/Close';
import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import type { QueryPart } from '@lantern/shared';
import { useState } from 'react';
import { truncate } from '../../../lib/text/truncate';
import { joinQuery, queryParts } from './defaultQueries';
import { chipParts } from './queryChipParts';

/** Raw mode: one text area; Enter applies, Escape cancels (spec §2 Explore spans 'Edit'). */
export function RawQueryEditor({
  query,
  onApply,
  onCancel,
}: {
  query: string;
  onApply: (q: string) => void;
  onCancel: () => void;
}) {
  const [text, setText] = useState(query);
  return (
    <Box data-testid="raw-query">
      <TextField
        fullWidth
        multiline
        autoFocus
        size="small"
        value={text}
        onChange={(e) => setText(e.target.value.replace(/\n/g, ' '))}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            onApply(text);
          } else if (e.key === 'Escape') onCancel();
        }}
        slotProps={{ htmlInput: { spellCheck: false, 'data-testid': 'raw-query-input' } }}
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mt: 0.5 }}>
        <Typography variant="caption" color="text.secondary" sx={{ flexGrow: 1 }}>
          Press ENTER to apply and ESC to cancel
        </Typography>
        <Button size="small" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="small" variant="contained" onClick={() => onApply(text)} data-testid="raw-query-ok">
          OK
        </Button>
      </Stack>
    </Box>
  );
}

/** One chip being edited inline: Enter or blur applies, Escape cancels. */
function ChipEditor({ text, error, onDone }: { text: string; error?: string; onDone: (text: string | null) => void }) {
  const [value, setValue] = useState(text);
  return (
    <TextField
      size="small"
      autoFocus
      value={value}
      error={Boolean(error) && value === text}
      helperText={value === text ? error : undefined}
      onChange={(e) => setValue(e.target.value)}
      onBlur={() => onDone(value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') onDone(value);
        else if (e.key === 'Escape') onDone(null);
      }}
      sx={{ width: Math.min(580, Math.max(200, value.length * 8 + 40)) }}
      slotProps={{ htmlInput: { 'data-testid': 'query-chip-input' } }}
    />
  );
}

/**
 * The query as chips (reference frontend §1.3.4): ✕ deletes a part, a click edits it inline,
 * '+ Add query' appends one; each chip shows its own error under it.
 */
export function QueryChips({
  query,
  serverParts,
  onChange,
  onRaw,
}: {
  query: string;
  serverParts?: QueryPart[];
  onChange: (q: string) => void;
  onRaw: () => void;
}) {
  const [editing, setEditing] = useState<number | null>(null);
  const parts = chipParts(query, serverParts);
  const texts = queryParts(query);

  const finishEdit = (index: number, text: string | null) => {
    setEditing(null);
    if (text === null) return;
    const next = [...texts];
    if (index >= next.length) next.push(text);
    else next[index] = text;
    onChange(joinQuery(next));
  };

  if (parts.length === 0 && editing === null) {
    return (
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ cursor: 'pointer', py: 1 }}
        onClick={onRaw}
        data-testid="query-empty"
      >
        Click to edit the query...
      </Typography>
    );
  }
  return (
    <Stack
      direction="row"
      useFlexGap
      spacing={1}
      sx={{ flexWrap: 'wrap', alignItems: 'flex-start', py: 0.5 }}
      data-testid="query-chips"
    >
      {parts.map((p, i) =>
        editing === i ? (
          <ChipEditor key={i} text={p.text} error={p.error} onDone={(t) => finishEdit(i, t)} />
        ) : (
          <Box
            key={i}
            data-testid="query-chip"
            data-error={p.error ? 'true' : undefined}
            data-disabled={p.disabled || undefined}
            sx={{ opacity: p.disabled ? 0.5 : 1 }}
          >
            <Box
              sx={{
                display: 'inline-flex',
                alignItems: 'center',
                bgcolor: '#F5F5F5',
                borderRadius: 1,
                px: 0.5,
                py: 0.25,
                maxWidth: 600,
                cursor: 'pointer',
                border: 1,
                borderColor: p.error ? 'error.main' : 'transparent',
              }}
              onClick={() => setEditing(i)}
            >
              <CloseIcon
                fontSize="small"
                sx={{ mr: 0.5, color: 'text.secondary', '&:hover': { color: 'text.primary' } }}
                onClick={(e) => {
                  e.stopPropagation();
                  onChange(joinQuery(texts.filter((_t, j) => j !== i)));
                }}
                data-testid="query-chip-delete"
              />
              {p.keyword && (
                <Box component="span" sx={{ fontWeight: 600, mr: 0.5 }}>
                  {p.keyword}
                </Box>
              )}
              <Box
                component="span"
                sx={{
                  fontFamily: 'ui-monospace, monospace',
                  fontSize: 13,
                  whiteSpace: 'nowrap',
                  overflow: 'hidden',
                  textOverflow: 'ellipsis',
                }}
                data-testid="query-chip-text"
              >
                {truncate(p.rest, 80)}
              </Box>
            </Box>
            {p.error && (
              <Typography
                variant="caption"
                color="error"
                component="div"
                sx={{ maxWidth: 600 }}
                data-testid="query-chip-error"
              >
                {p.error}
              </Typography>
            )}
          </Box>
        ),
      )}
      {editing === parts.length ? (
        <ChipEditor text="" onDone={(t) => finishEdit(parts.length, t)} />
      ) : (
        editing === null && (
          <Button size="small" startIcon={<AddIcon />} onClick={() => setEditing(parts.length)} data-testid="query-add">
            Add query
          </Button>
        )
      )}
    </Stack>
  );
}
