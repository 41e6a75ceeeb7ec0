// Tracing: the read side of spans: trace trees, single spans, trace lookup (and, later, the
// query language endpoints). Reads through TelemetryStore only; never writes.
export { createTracingStore, type TracingStore } from './tracing.store';
export { registerTracingRoutes } from './tracing.routes';
export { tracingMigration } from './tracing.migration';
export { buildTraceTree, selfTime, nsToRfc3339, type TraceRow } from './traceTree';
