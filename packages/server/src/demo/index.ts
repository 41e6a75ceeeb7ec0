// Demo data: a seeded generator of realistic shop traces and the route that sends them through the
// project's own OTLP/HTTP ingest. Owns no storage and never writes except through ingest.
export { registerDemoRoutes } from './demo.routes';
export { bigDemoTrace, demoTraces, type DemoOptions } from './demoTraces';
