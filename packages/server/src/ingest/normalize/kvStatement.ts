import { templateMessage } from './messageTemplate';

/**
 * Key-value store statements (Redis, Memcached; issue 20): `GET cart:9b2f…:items:1003`. They are
 * commands, not SQL, so they group by their command whatever the key, and their group is named by
 * the statement with the key's and arguments' variable parts as placeholders (templated like log
 * messages): `GET cart:<uuid>:items:<num>`.
 */
const KV_SYSTEMS: ReadonlySet<string> = new Set(['redis', 'valkey', 'memcached', 'memcache']);

export function isKeyValueSystem(dbSystem: string): boolean {
  return KV_SYSTEMS.has(dbSystem.toLowerCase());
}

/** The command: the statement's first word, uppercased (`get` and `GET` are one command). */
export function kvCommand(statement: string): string {
  const trimmed = statement.trimStart();
  const end = trimmed.search(/\s/);
  return (end < 0 ? trimmed : trimmed.slice(0, end)).toUpperCase();
}

export function templateKv(statement: string): string {
  const trimmed = statement.trim();
  const end = trimmed.search(/\s/);
  if (end < 0) return trimmed;
  return trimmed.slice(0, end) + templateMessage(trimmed.slice(end));
}
