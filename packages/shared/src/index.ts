export * from './api/errors';
export * from './api/users';
export * from './api/projects';
export * from './api/tracing';
export * from './api/tracingQuery';
export * from './dsn';
export * from './traceId';
export * from './query';
