import { Alert, Box, Card, CardContent, Link, Skeleton, Stack, Tab, Tabs, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { CodeBlock } from '../../components/CodeBlock';
import { HelpLinks } from '../../components/HelpLinks';
import { PageToolbar } from '../../components/PageToolbar';
import { NotFoundPage } from '../../app/NotFoundPage';
import { useProjectIdParam } from '../../lib/routes/useProjectIdParam';
import { externalLinks } from '../../lib/routes/paths';
import { ProjectDsnTable } from '../projects/ProjectDsnTable';
import { useProject } from '../projects/projectsApi';
import { collectorSnippet, sdkEnvSnippet } from './helpSnippets';

type Transport = 'http' | 'grpc';

function TransportTabs({ value, onChange }: { value: Transport; onChange: (t: Transport) => void }) {
  return (
    <Tabs value={value} onChange={(_e, v: Transport) => onChange(v)} sx={{ minHeight: 36, '& .MuiTab-root': { minHeight: 36 } }}>
      <Tab value="http" label="OTLP/HTTP" data-testid="help-tab-http" />
      <Tab value="grpc" label="OTLP/gRPC" data-testid="help-tab-grpc" />
    </Tabs>
  );
}

/** Spec tracing §2 'Getting started': how to point OpenTelemetry at this project. */
export function TracingHelpPage() {
  const projectId = useProjectIdParam();
  const { data, error, isPending } = useProject(projectId);
  const [sdkTransport, setSdkTransport] = useState<Transport>('http');
  const [collectorTransport, setCollectorTransport] = useState<Transport>('grpc');

  useEffect(() => {
    document.title = 'Getting started | Lantern';
  }, []);

  if (projectId === undefined) return <NotFoundPage />;
  if (error) return <Alert severity="error">{error.message}</Alert>;
  if (isPending) return <Skeleton variant="rectangular" height={400} />;

  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }} data-testid="tracing-help">
      <PageToolbar title="Getting started with Lantern" />
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            1. Your project's DSN
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            The DSN tells Lantern which project the data belongs to. Send it in the <code>lantern-dsn</code> header. Use the gRPC
            endpoint with Go, Python, Java, .NET, Rust, Erlang and Elixir, and the HTTP endpoint with Ruby, Node.js and PHP.
          </Typography>
          <ProjectDsnTable project={data} />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            2. Point an OpenTelemetry SDK at Lantern
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Every OpenTelemetry SDK reads these environment variables. Set them before you start your service, then install the{' '}
            <Link href={externalLinks.instrumentations} target="_blank" rel="noopener">
              instrumentations
            </Link>{' '}
            for your libraries.
          </Typography>
          <TransportTabs value={sdkTransport} onChange={setSdkTransport} />
          <CodeBlock code={sdkEnvSnippet(data, sdkTransport)} testId="help-sdk-env" />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            3. Or forward through an OpenTelemetry Collector
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Add this exporter to the Collector's <code>config.yaml</code>.
          </Typography>
          <TransportTabs value={collectorTransport} onChange={setCollectorTransport} />
          <CodeBlock code={collectorSnippet(data, collectorTransport)} testId="help-collector" />
          <Alert severity="warning" sx={{ mt: 1 }}>
            The Collector silently ignores exporters that are not listed in a <code>service.pipelines</code> entry.
          </Alert>
        </CardContent>
      </Card>
      <Box sx={{ py: 2 }}>
        <HelpLinks />
      </Box>
    </Stack>
  );
}
