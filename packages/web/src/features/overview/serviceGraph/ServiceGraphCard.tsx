import { Button, Card, CardContent, IconButton, Stack, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { formatDuration, formatNum } from '@lantern/shared';
import { Link as RouterLink } from 'react-router-dom';
import { Sparkline } from '../../../components/charts/Sparkline';
import { useServiceGraphSeries } from './serviceGraphApi';
import { errorColor, errorRate } from './serviceGraphModel';

export interface CardSubject {
  title: string;
  subtitle: string;
  calls: number;
  errors: number;
  p50: number | null;
  p99: number | null;
  /** `node` or `client` + `server`: what the series is asked for. */
  series: { node: string } | { client: string; server: string };
  /** Explore spans over the same range, or null (the `user` node has no spans of its own). */
  exploreHref: string | null;
  exploreLabel: string;
}

/** A node's or an edge's numbers over the range, its calls per bucket, and its spans in Explore. */
export function ServiceGraphCard({
  projectId,
  range,
  minutes,
  subject,
  onClose,
}: {
  projectId: number;
  range: { time_gte: string; time_lt: string };
  minutes: number;
  subject: CardSubject;
  onClose: () => void;
}) {
  const series = useServiceGraphSeries(projectId, { ...range, ...subject.series });
  const rate = errorRate(subject);
  const facts: [string, string, string][] = [
    ['Calls/min', formatNum(subject.calls / Math.max(1, minutes)), 'card-rate'],
    ['Calls', formatNum(subject.calls), 'card-calls'],
    ['Errors', rate === null ? '–' : `${formatNum(subject.errors)} (${formatNum(rate * 100)} %)`, 'card-errors'],
    ['p50', subject.p50 === null ? '–' : formatDuration(subject.p50), 'card-p50'],
    ['p99', subject.p99 === null ? '–' : formatDuration(subject.p99), 'card-p99'],
  ];
  return (
    <Card variant="outlined" data-testid="service-graph-card" sx={{ borderLeft: `6px solid ${errorColor(subject)}` }}>
      <CardContent>
        <Stack direction="row" sx={{ alignItems: 'flex-start' }}>
          <Stack sx={{ flexGrow: 1, minWidth: 0 }}>
            <Typography variant="subtitle1" data-testid="card-title" sx={{ wordBreak: 'break-all' }}>
              {subject.title}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {subject.subtitle}
            </Typography>
          </Stack>
          <IconButton size="small" aria-label="Close" onClick={onClose}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </Stack>
        <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: 'wrap', my: 1 }}>
          {facts.map(([label, value, testId]) => (
            <Stack key={label}>
              <Typography variant="caption" color="text.secondary">
                {label}
              </Typography>
              <Typography variant="body2" data-testid={testId}>
                {value}
              </Typography>
            </Stack>
          ))}
        </Stack>
        {series.data && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', my: 1 }}>
            <Typography variant="caption" color="text.secondary">
              Calls per {formatNum(series.data.bucket / 60)} min
            </Typography>
            <Sparkline time={series.data.time} values={series.data.calls} unit="" gapsAsZero />
          </Stack>
        )}
        {subject.exploreHref && (
          <Button
            size="small"
            variant="outlined"
            component={RouterLink}
            to={subject.exploreHref}
            data-testid="card-explore"
          >
            {subject.exploreLabel}
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
