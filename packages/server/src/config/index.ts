// Configuration: one zod schema with defaults, loaded from defaults, lantern.yml, then LANTERN_* env.
// Nothing else in the server reads process.env or the config file.
export { ConfigSchema, parseListenAddr, type Config, type ProjectConfig, type UserConfig } from './schema';
export type { AuthConfig, OidcProviderConfig } from './authConfig';
export { loadConfig, ConfigError, ENV_KEYS } from './loadConfig';
