import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Grid, Typography } from '@mui/material';
import { CodeBlock } from '../../../components/CodeBlock';
import { externalLinks } from '../../../lib/routes/paths';

const FILTERING = [
  ['Spans slower than 100ms', 'where .duration > 100ms'],
  ['Failed spans of a service', 'where .status_code = "error" | where service.name = "checkout"'],
  ['Name contains one of several words', 'where .name contains "select|insert"'],
  ['Attribute exists', 'where db.statement exists'],
  ['Values in a list', 'where http.status_code in (500, 502, 503)'],
];
const AGGREGATION = [
  [
    'Groups with rate, errors and percentiles',
    'group by .group_id | .count_per_min | .error_rate | {p50,p90,p99}(.duration)',
  ],
  ['Slowest routes', 'group by http.route | p99(.duration) | where .system = "http:frontend"'],
  ['Users per service', 'group by service.name | uniq(enduser.id)'],
  ['Only busy groups', 'group by .group_id | .count | where .count > 100'],
];

/** The 'Spans Querying Cheat Sheet' (spec §2 Explore spans, Help). */
export function QueryHelpDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const section = (title: string, rows: string[][]) => (
    <Grid size={{ xs: 12, md: 6 }}>
      <Typography variant="h6" gutterBottom>
        {title}
      </Typography>
      {rows.map(([label, code]) => (
        <div key={code}>
          <Typography variant="body2" sx={{ mt: 1 }}>
            {label}
          </Typography>
          <CodeBlock code={code} />
        </div>
      ))}
    </Grid>
  );
  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth={false}
      slotProps={{ paper: { sx: { width: '100%', maxWidth: 1280 } } }}
      data-testid="query-help"
    >
      <DialogTitle>Spans Querying Cheat Sheet</DialogTitle>
      <DialogContent>
        <Grid container spacing={3}>
          {section('Filtering', FILTERING)}
          {section('Aggregation', AGGREGATION)}
          <Grid size={12} data-testid="query-help-what-changed">
            <Typography variant="h6" gutterBottom>
              What changed
            </Typography>
            <Typography variant="body2">
              On the Timeseries tab, drag a rectangle over the duration heatmap (time × duration), or press Errors: What
              changed lists the attributes whose values differ most between those spans and the other spans of the
              query, each value with its share of both (largest difference first). Click a value to add it to the query.
              Numbers are compared by tenths of their values; ids and other keys with a different value on nearly every
              span are left out; over many spans, a sample of whole traces is compared. The selection is a where part of
              the query language, kept in the address:
            </Typography>
            <CodeBlock
              code={'where .time >= "2026-01-01T10:00:00Z" and .time < "2026-01-01T10:05:00Z" and .duration >= 500ms'}
            />
          </Grid>
          <Grid size={12} data-testid="live-help">
            <Typography variant="h6" gutterBottom>
              Live tail
            </Typography>
            <Typography variant="body2">
              On the Spans tab, <b>Live</b> shows logs and spans as they are stored, newest on top, with the systems and
              the where filters of the query (search words are marked). Rows that arrive late with old timestamps show
              too: the tail follows the order rows were stored in. <b>Pause</b> keeps the list still (it also pauses
              while you scroll down or open a row); rows that arrive meanwhile are counted and show on <b>Resume</b>. A
              tail sends at most a set number of rows a second and says how many it skipped past that.
            </Typography>
          </Grid>
        </Grid>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
        <Button href={externalLinks.docs} target="_blank" rel="noopener">
          Read more ↗
        </Button>
      </DialogActions>
    </Dialog>
  );
}
