// HTTP plumbing shared by every area: the Fastify app, the one error type and its rendering,
// input validation, and serving the web bundle. Holds no product rules.
export { createHttpApp, type RegisteredRoute } from './app';
export { registerApiDocs } from './apiDocs';
export { AppError, invalidInput, notFound, type AppErrorType } from './appError';
export { parseInput } from './parseInput';
export { registerRawRoute, registerRoute, type RouteInput } from './routes';
export { registerWebApp } from './webApp';
