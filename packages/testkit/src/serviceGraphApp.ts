// One service of the service graph tests (issue 36): a Node HTTP server instrumented by the
// OpenTelemetry SDK's HTTP auto-instrumentation, exporting its spans in batches over OTLP/HTTP
// (protobuf) to Lantern, as an application would. Run as its own process (`node --import tsx`).
//
// Environment: SG_SERVICE (service.name), SG_OTLP_URL (…/v1/traces), SG_DSN, SG_CALLS (JSON list
// of URLs called one after the other on every request), SG_FAIL_EVERY (answer 500 to every Nth
// request, after its calls), SG_DB (`system/name`: a database client span on every request).
// Prints `listening <port>`; on SIGTERM flushes its spans and exits.
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { SpanKind, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

const env = process.env;
const provider = new NodeTracerProvider({
  resource: resourceFromAttributes({ 'service.name': env.SG_SERVICE ?? 'app' }),
  spanProcessors: [
    new BatchSpanProcessor(
      new OTLPTraceExporter({ url: env.SG_OTLP_URL, headers: { 'lantern-dsn': env.SG_DSN ?? '' } }),
      {
        scheduledDelayMillis: 200,
      },
    ),
  ],
});
provider.register();
registerInstrumentations({ instrumentations: [new HttpInstrumentation()] });

// Loaded after the instrumentation is registered, through require: the instrumentation patches
// `http` as it is required (an ES import of a built-in would not be patched).
const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');
const calls = JSON.parse(env.SG_CALLS || '[]') as string[];
const failEvery = Number(env.SG_FAIL_EVERY || 0);
const tracer = trace.getTracer('service-graph-app');
let served = 0;

function get(url: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      })
      .on('error', reject);
  });
}

async function handle(res: import('node:http').ServerResponse): Promise<void> {
  const n = ++served;
  try {
    for (const url of calls) await get(url);
    if (env.SG_DB) {
      const [system, name] = env.SG_DB.split('/');
      const span = tracer.startSpan('SELECT orders', {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system': system, 'db.name': name, 'db.statement': 'SELECT * FROM orders WHERE id = $1' },
      });
      await new Promise((r) => setTimeout(r, 2));
      span.end();
    }
    res.statusCode = failEvery && n % failEvery === 0 ? 500 : 200;
  } catch {
    res.statusCode = 502;
  }
  res.end('ok');
}

const server = http.createServer((_req, res) => void handle(res));
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => {
  server.close();
  provider.shutdown().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
