// Tracing: the read side of spans: trace trees, single spans, trace lookup, the query language
// endpoints and the service graph. Reads spans through TelemetryStore; its only write is the
// service graph's minutes (serviceGraph/serviceGraphJob.ts), never spans.
export { createTracingStore, type TracingStore } from './tracing.store';
export { registerTracingRoutes } from './tracing.routes';
export { tracingMigration } from './tracing.migration';
export { buildTraceTree, selfTime, nsToRfc3339, type TraceRow } from './traceTree';
export { createServiceGraphJob, type ServiceGraphJob } from './serviceGraph/serviceGraphJob';
export { createDurationRollupJob, createSystemRollupJob } from './query/windowRollupJob';
