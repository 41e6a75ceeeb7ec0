export { composeLantern, type Lantern } from './app/compose';
export { loadConfig, type Config } from './config';
export { createHttpApp, registerRoute } from './http';
