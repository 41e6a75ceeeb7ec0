import { Alert, Button, Card, CardContent, Link, Skeleton, Stack, Typography } from '@mui/material';
import { Link as RouterLink } from 'react-router-dom';
import { CopySnippet } from '../../../components/CopySnippet';
import { PageToolbar } from '../../../components/PageToolbar';
import { externalLinks, paths } from '../../../lib/routes/paths';
import { ProjectDsnTable } from '../../projects/ProjectDsnTable';
import { useProject } from '../../projects/projectsApi';
import { appMetricsEnvSnippet, infraCollectorSnippet, prometheusRemoteWriteSnippet } from './metricsSnippets';

/** Software whose metrics come in through the Collector's receivers or its Prometheus scraping. */
const SUPPORTED = [
  [
    'Host metrics (CPU, memory, disk, network)',
    'https://github.com/open-telemetry/opentelemetry-collector-contrib/tree/main/receiver/hostmetricsreceiver',
  ],
  [
    'PostgreSQL',
    'https://github.com/open-telemetry/opentelemetry-collector-contrib/tree/main/receiver/postgresqlreceiver',
  ],
  ['MySQL', 'https://github.com/open-telemetry/opentelemetry-collector-contrib/tree/main/receiver/mysqlreceiver'],
  ['Redis', 'https://github.com/open-telemetry/opentelemetry-collector-contrib/tree/main/receiver/redisreceiver'],
  [
    'Kafka',
    'https://github.com/open-telemetry/opentelemetry-collector-contrib/tree/main/receiver/kafkametricsreceiver',
  ],
  [
    'Kubernetes',
    'https://github.com/open-telemetry/opentelemetry-collector-contrib/tree/main/receiver/k8sclusterreceiver',
  ],
  [
    'Docker',
    'https://github.com/open-telemetry/opentelemetry-collector-contrib/tree/main/receiver/dockerstatsreceiver',
  ],
  ['Nginx', 'https://github.com/open-telemetry/opentelemetry-collector-contrib/tree/main/receiver/nginxreceiver'],
  ['Anything with a Prometheus endpoint', 'https://prometheus.io/docs/instrumenting/exporters/'],
] as const;

function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId: string }) {
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

/** Spec tracing §2 Metrics layout: the playground is project 1, whose metrics a visitor can look around in. */
const PLAYGROUND_PROJECT_ID = 1;

/** Spec tracing §2 Metrics layout: how to send metrics, shown until the project has some (and at /metrics/:id/help). */
export function MetricsHelpCard({ projectId }: { projectId: number }) {
  const { data, error, isPending } = useProject(projectId);
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (isPending) return <Skeleton variant="rectangular" height={400} />;
  return (
    <Stack spacing={2} sx={{ maxWidth: 1000 }} data-testid="metrics-help">
      <PageToolbar title="Send metrics to the product" />
      <Typography variant="body2" color="text.secondary">
        Lantern takes OpenTelemetry metrics over OTLP (gRPC and HTTP) and Prometheus remote write. Use the project DSN
        below; dashboards appear here as soon as the first metrics arrive.
      </Typography>
      {projectId !== PLAYGROUND_PROJECT_ID && (
        <Typography variant="body2" data-testid="metrics-playground">
          Just looking? Open the{' '}
          <Link component={RouterLink} to={paths.metrics(PLAYGROUND_PROJECT_ID)} data-testid="metrics-playground-link">
            playground
          </Link>{' '}
          (project {PLAYGROUND_PROJECT_ID}) to see dashboards and metrics explore at work.
        </Typography>
      )}
      <ProjectDsnTable project={data} />
      <Section title="In-app metrics" testId="help-in-app">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Create counters, histograms and gauges with the OpenTelemetry{' '}
          <Link href={externalLinks.instrumentations} target="_blank" rel="noopener">
            metrics API
          </Link>{' '}
          of your language; the SDK's OTLP exporter reads these variables. Delta temporality keeps the exporter's memory
          flat; cumulative works too. Node.js: start the SDK as{' '}
          <Link component={RouterLink} to={paths.tracingHelp(projectId)} data-testid="metrics-help-node-link">
            Getting started
          </Link>{' '}
          shows.
        </Typography>
        <CopySnippet code={appMetricsEnvSnippet(data)} testId="help-metrics-env" />
      </Section>
      <Section title="Infrastructure metrics" testId="help-infra">
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Run the OpenTelemetry Collector (contrib) on each host: it reads the host's metrics and scrapes Prometheus
          endpoints, and sends both to this project.
        </Typography>
        <CopySnippet code={infraCollectorSnippet(data)} testId="help-infra-collector" />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2, mb: 1 }}>
          Already running Prometheus? Add this to <code>prometheus.yml</code> and it writes everything it scrapes into
          this project.
        </Typography>
        <CopySnippet code={prometheusRemoteWriteSnippet(data)} testId="help-remote-write" />
      </Section>
      <Section title="Supported software" testId="help-supported">
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
          {SUPPORTED.map(([name, href]) => (
            <Button key={name} size="small" variant="outlined" href={href} target="_blank" rel="noopener">
              {name}
            </Button>
          ))}
        </Stack>
      </Section>
    </Stack>
  );
}
