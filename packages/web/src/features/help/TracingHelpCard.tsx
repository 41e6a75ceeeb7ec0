import RocketLaunchIcon from '@mui/icons-material/RocketLaunch';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Link,
  Skeleton,
  Stack,
  Tab,
  Tabs,
  Typography,
} from '@mui/material';
import { systemRoutes } from '@lantern/shared';
import { useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { CopySnippet } from '../../components/CopySnippet';
import { DateRangePicker } from '../../components/date/DateRangePicker';
import type { DateRangeState } from '../../components/date/useDateRange';
import { HelpLinks } from '../../components/HelpLinks';
import { PageToolbar } from '../../components/PageToolbar';
import { externalLinks, paths } from '../../lib/routes/paths';
import { ProjectDsnTable } from '../projects/ProjectDsnTable';
import { useProject } from '../projects/projectsApi';
import { useSendDemoData } from './demoApi';
import {
  collectorSnippet,
  nodeStartSnippet,
  sdkEnvSnippet,
  vectorSnippet,
  ZIPKIN_EXAMPLE_TRACE_ID,
  zipkinSnippet,
  zipkinUrlWithDsn,
} from './helpSnippets';

type Transport = 'http' | 'grpc';

function TransportTabs({
  value,
  onChange,
  testId,
}: {
  value: Transport;
  onChange: (t: Transport) => void;
  testId: string;
}) {
  return (
    <Tabs
      value={value}
      onChange={(_e, v: Transport) => onChange(v)}
      sx={{ minHeight: 36, '& .MuiTab-root': { minHeight: 36 } }}
    >
      <Tab value="grpc" label="OTLP/gRPC" data-testid={`${testId}-grpc`} />
      <Tab value="http" label="OTLP/HTTP" data-testid={`${testId}-http`} />
    </Tabs>
  );
}

const INTEGRATIONS = [
  ['Go', 'https://opentelemetry.io/docs/languages/go/'],
  ['Python', 'https://opentelemetry.io/docs/languages/python/'],
  ['Java', 'https://opentelemetry.io/docs/languages/java/'],
  ['.NET', 'https://opentelemetry.io/docs/languages/dotnet/'],
  ['Node.js', 'https://opentelemetry.io/docs/languages/js/'],
  ['Ruby', 'https://opentelemetry.io/docs/languages/ruby/'],
  ['PHP', 'https://opentelemetry.io/docs/languages/php/'],
  ['Rust', 'https://opentelemetry.io/docs/languages/rust/'],
  ['Erlang/Elixir', 'https://opentelemetry.io/docs/languages/erlang/'],
];

/** "Send demo data": realistic traces through the real ingest, then a link to look at them. */
function DemoData({ projectId }: { projectId: number }) {
  const send = useSendDemoData(projectId);
  return (
    <Alert
      severity="info"
      icon={<RocketLaunchIcon />}
      action={
        <Button
          variant="contained"
          size="small"
          disabled={send.isPending}
          startIcon={send.isPending ? <CircularProgress size={14} color="inherit" /> : undefined}
          onClick={() => send.mutate()}
          data-testid="send-demo-data"
        >
          Send demo data
        </Button>
      }
      data-testid="demo-data"
    >
      Just looking? Send realistic traces and logs of a small shop through this project's OTLP endpoint.
      {send.data && (
        <Box data-testid="demo-data-sent" sx={{ mt: 0.5 }}>
          Sent {send.data.traces} traces ({send.data.spans} spans).{' '}
          <Link component={RouterLink} to={paths.overview(projectId)} data-testid="demo-data-open">
            Open the overview
          </Link>
        </Box>
      )}
      {send.error && <Box sx={{ color: 'error.main', mt: 0.5 }}>{send.error.message}</Box>}
    </Alert>
  );
}

/**
 * A tracing screen (Overview, Explore spans) over a range without data: the getting-started card,
 * with the screen's date range so that a range with no data can be left.
 */
export function NoTracingDataCard({ projectId, dateRange }: { projectId: number; dateRange: DateRangeState }) {
  return (
    <TracingHelpCard
      projectId={projectId}
      title="Send data to Lantern"
      toolbar={<DateRangePicker state={dateRange} />}
    />
  );
}

/** Spec tracing §2 'Getting started': DSNs, SDK and Collector configuration, Vector, Zipkin, demo data. */
export function TracingHelpCard({
  projectId,
  title = 'Getting started with the product',
  toolbar,
}: {
  projectId: number;
  title?: string;
  /** Shown at the right of the title, e.g. the Overview's date range: a range with no data can be left. */
  toolbar?: ReactNode;
}) {
  const { data, error, isPending } = useProject(projectId);
  const [sdkTransport, setSdkTransport] = useState<Transport>('grpc');
  const [collectorTransport, setCollectorTransport] = useState<Transport>('grpc');
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (isPending) return <Skeleton variant="rectangular" height={400} />;
  return (
    <Stack spacing={2} sx={{ maxWidth: 1000 }} data-testid="tracing-help">
      <PageToolbar title={title}>{toolbar}</PageToolbar>
      <DemoData projectId={projectId} />
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            1. Your project's DSN
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            The DSN tells Lantern which project the data belongs to. Send it in the <code>lantern-dsn</code> header. Use
            the gRPC endpoint with Go, Python, Java, .NET, Rust, Erlang and Elixir, and the HTTP endpoint with Ruby,
            Node.js and PHP.
          </Typography>
          <ProjectDsnTable project={data} />
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', mt: 2 }} data-testid="integrations">
            {INTEGRATIONS.map(([name, href]) => (
              <Button key={name} size="small" variant="outlined" href={href} target="_blank" rel="noopener">
                {name}
              </Button>
            ))}
          </Stack>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            2. Point an OpenTelemetry SDK at Lantern
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Every OpenTelemetry SDK reads these environment variables. Set them before you start your service, then
            install the{' '}
            <Link href={externalLinks.instrumentations} target="_blank" rel="noopener">
              instrumentations
            </Link>{' '}
            for your libraries.
          </Typography>
          <TransportTabs value={sdkTransport} onChange={setSdkTransport} testId="help-tab" />
          <CopySnippet code={sdkEnvSnippet(data, sdkTransport)} testId="help-sdk-env" />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2, mb: 1 }}>
            Node.js: install the SDK with its automatic instrumentations and load it before your code (Python:{' '}
            <code>opentelemetry-instrument</code>, Java: the <code>-javaagent</code>, Go and Rust: set it up in code).
          </Typography>
          <CopySnippet code={nodeStartSnippet()} testId="help-node" />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            3. Or forward through an OpenTelemetry Collector
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            A Collector <code>config.yaml</code> that forwards traces, metrics and logs to this project (batches of
            10000 spans or every 10 s). Already running one? Add its exporter to yours and put it in each pipeline.
          </Typography>
          <TransportTabs value={collectorTransport} onChange={setCollectorTransport} testId="collector-tab" />
          <CopySnippet code={collectorSnippet(data, collectorTransport)} testId="help-collector" />
          <Alert severity="warning" sx={{ mt: 1 }} data-testid="pipelines-warning">
            The Collector silently ignores exporters that are not added to a <code>service.pipelines</code> entry.
          </Alert>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            4. Logs from Vector
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Vector 0.23.0 or newer can ship logs as newline-delimited gzip JSON with this sink; put the names of your
            log sources in <code>inputs</code>.
          </Typography>
          <CopySnippet code={vectorSnippet(data)} testId="help-vector" />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            5. Zipkin
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Zipkin-compatible JSON spans are accepted with a POST to the project's HTTP endpoint, with the DSN in a
            header. This posts one span: paste its trace id <code>{ZIPKIN_EXAMPLE_TRACE_ID}</code> into the search box
            at the top to open it.
          </Typography>
          <CopySnippet code={zipkinSnippet(data)} testId="help-zipkin" />
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            A Zipkin reporter that cannot send headers can post to{' '}
            <code data-testid="help-zipkin-url">{zipkinUrlWithDsn(data)}</code>.
          </Typography>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            6. Script Lantern with its API
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Provision monitors and dashboards from CI or pull alerts into another tool: every endpoint is described in
            the{' '}
            <Link href={systemRoutes.apiDocs.path} target="_blank" rel="noopener" data-testid="help-api-docs">
              API reference
            </Link>{' '}
            (an{' '}
            <Link href={systemRoutes.openApi.path} target="_blank" rel="noopener">
              OpenAPI 3.1 document
            </Link>
            ). Sign in with <code>POST</code> to the login endpoint and send the session cookie it sets.
          </Typography>
        </CardContent>
      </Card>
      <Box sx={{ py: 2 }}>
        <HelpLinks />
      </Box>
    </Stack>
  );
}
