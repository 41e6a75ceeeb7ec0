import { Typography } from '@mui/material';
import { useSearchParams } from 'react-router-dom';
import { ComingSoon } from '../../components/ComingSoon';

/** Placeholder until Explore spans (spec tracing §2) is delivered; shows the query it was opened with. */
export function SpanGroupListPage() {
  const [search] = useSearchParams();
  const query = search.get('query');
  return (
    <ComingSoon
      title="Explore spans"
      summary="Traces & Logs will let you search, group and chart spans, logs and events with the query language."
      planned={[
        'Groups of similar spans with rate, error rate and p50/p90/p99 duration',
        'The spans of a group, with their attributes, and time series per group',
        'A query builder with filters, aggregations, grouping and saved views',
      ]}
    >
      {query && (
        <Typography variant="body2" color="text.secondary" data-testid="span-query">
          Requested query: <code>{query}</code>
        </Typography>
      )}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        Meanwhile, paste a trace id into the search box at the top to open a trace.
      </Typography>
    </ComingSoon>
  );
}
