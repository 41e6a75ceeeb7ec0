import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { Accordion, AccordionDetails, AccordionSummary, Stack, Typography } from '@mui/material';
import type { SpanEvent } from '@lantern/shared';
import { formatTime } from '../../../lib/format/dateTime';
import { SpanAttrsTable } from './SpanAttrs';

/** A span's events as panels: time and name, then the attributes (a single event starts open). */
export function EventPanels({ events }: { events: SpanEvent[] }) {
  if (events.length === 0) return <Typography color="text.secondary">There are no events.</Typography>;
  return (
    <Stack data-testid="event-panels">
      {events.map((e, i) => (
        <Accordion
          key={`${e.time}-${i}`}
          defaultExpanded={events.length === 1}
          disableGutters
          variant="outlined"
          data-testid="event-panel"
        >
          <AccordionSummary expandIcon={Object.keys(e.attrs).length ? <ExpandMoreIcon /> : undefined}>
            <Typography variant="caption" color="text.secondary" sx={{ mr: 2, mt: 0.3 }}>
              {formatTime(new Date(e.time))}
            </Typography>
            <Typography variant="body2">{e.name}</Typography>
          </AccordionSummary>
          {Object.keys(e.attrs).length > 0 && (
            <AccordionDetails>
              <SpanAttrsTable attrs={e.attrs} />
            </AccordionDetails>
          )}
        </Accordion>
      ))}
    </Stack>
  );
}
