import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import { Alert, Box, Button, Card, Chip, Stack, Typography } from '@mui/material';
import type { Span } from '@lantern/shared';
import { useEffect, useMemo, useState } from 'react';
import { countOf } from '../../../../lib/format/countText';
import { SpansTable } from '../SpansTable';
import type { SpanColumn } from '../spanColumns';
import { searchWords } from './searchWords';
import { useLiveTail } from './useLiveTail';

/** Scrolled this far down the page, the list pauses (the rows under the reader stay put). */
const SCROLL_PAUSE_PX = 120;

/**
 * The Spans tab in Live mode (`live=1`): rows as they are stored, newest on top, with a counter of
 * rows received, Pause/Resume, and a pause of its own while the reader scrolls down or opens a row
 * (as HyperDX does); the search words are marked. Paused, rows still arrive and are counted; they
 * show on Resume.
 */
export function LiveSpans({
  projectId,
  systems,
  query,
  showSystem,
  eventsMode,
  columns,
  onChip,
  onStop,
}: {
  projectId: number;
  systems: readonly string[];
  query: string;
  showSystem: boolean;
  eventsMode: boolean;
  columns: SpanColumn[];
  onChip: (key: string, value: string) => void;
  onStop: () => void;
}) {
  const tail = useLiveTail(projectId, systems, query);
  const [paused, setPaused] = useState<'user' | 'scroll' | 'row' | null>(null);
  const [shown, setShown] = useState<Span[]>([]);
  const words = useMemo(() => searchWords(query), [query]);
  const rows = paused ? shown : tail.rows;
  const held = paused ? tail.rows.filter((r) => !shown.includes(r)).length : 0;
  const pause = (why: 'user' | 'scroll' | 'row') => {
    if (paused) return;
    setShown(tail.rows);
    setPaused(why);
  };
  const latest = tail.rows;
  useEffect(() => {
    if (paused) return;
    const onScroll = () => {
      if (window.scrollY <= SCROLL_PAUSE_PX) return;
      setShown(latest);
      setPaused('scroll');
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [paused, latest]);

  return (
    <Card variant="outlined" data-testid="live-card">
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', bgcolor: '#E1F5FE', px: 2, minHeight: 48 }}>
        <Typography variant="h6" sx={{ fontSize: '1.1rem' }}>
          Spans
        </Typography>
        <Chip
          size="small"
          color={tail.state === 'live' && !paused ? 'success' : 'default'}
          label={
            paused ? 'Paused' : tail.state === 'live' ? 'Live' : tail.state === 'refused' ? 'Stopped' : 'Connecting'
          }
          data-testid="live-state"
        />
        <Box sx={{ flexGrow: 1 }} />
        <Typography variant="body2" data-testid="live-received">
          {countOf(tail.received, 'row')} received
          {tail.skipped > 0 && `, ${countOf(tail.skipped, 'row')} skipped over the rate limit`}
          {held > 0 && `, ${held} new while paused`}
        </Typography>
        {paused ? (
          <Button
            size="small"
            variant="contained"
            startIcon={<PlayArrowIcon />}
            onClick={() => setPaused(null)}
            data-testid="live-resume"
          >
            Resume
          </Button>
        ) : (
          <Button
            size="small"
            variant="outlined"
            startIcon={<PauseIcon />}
            onClick={() => pause('user')}
            data-testid="live-pause"
          >
            Pause
          </Button>
        )}
        <Button size="small" onClick={onStop} data-testid="live-stop">
          Stop live
        </Button>
      </Stack>
      {tail.error && (
        <Alert severity="warning" sx={{ m: 2 }} data-testid="live-error">
          {tail.error}
        </Alert>
      )}
      {paused && paused !== 'user' && (
        <Alert severity="info" sx={{ m: 2 }} data-testid="live-auto-paused">
          Paused while you {paused === 'scroll' ? 'scroll down' : 'look at a row'}: press Resume to see new rows.
        </Alert>
      )}
      {/* A row opened pauses the list, so it does not move under the dialog. */}
      <Box
        onClickCapture={(e) => {
          if ((e.target as HTMLElement).closest('[data-testid="span-list-row"]')) pause('row');
        }}
      >
        <SpansTable
          projectId={projectId}
          spans={rows}
          order={{ column: '.time', desc: true }}
          onOrder={() => undefined}
          showSystem={showSystem}
          eventsMode={eventsMode}
          onChip={onChip}
          pageQuery={query}
          columns={columns}
          highlight={words}
          emptyText={tail.state === 'refused' ? undefined : 'Waiting for new rows: they show here as they are stored.'}
        />
      </Box>
    </Card>
  );
}
