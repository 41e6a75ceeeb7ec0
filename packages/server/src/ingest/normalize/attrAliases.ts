import type { AttrMap } from '../spanRow';
import { normalizeSeverity } from './severity';

/**
 * Alias normalisation (reference ingest §2.5 step 1, `normAttrs`): well-known attributes that
 * loggers and older instrumentations spell differently are moved to their canonical key, so the
 * system rules and promoted columns see one name. Only applies when the canonical key is absent;
 * the first alias holding a non-empty string wins and is removed.
 */
const ALIASES: ReadonlyArray<readonly [canonical: string, aliases: readonly string[]]> = [
  ['service.name', ['service_name', 'service']],
  ['http.route', ['http_route']],
  ['db.system', ['db_system', 'db.type']],
  // QUIRK fixed: the reference writes the db.name alias value into db.system.
  ['db.name', ['db_name', 'dbname']],
  ['db.statement', ['db_statement', 'statement']],
];

/**
 * Stable OpenTelemetry semantic-convention names → the older names that have promoted columns
 * (PROMOTED_ATTRS: `deployment_environment`, `db_system`, `db_statement`, `db_operation`,
 * `db_sql_table`), so `where deployment.environment = "prod"` or `where db.statement exists` finds
 * spans from current SDKs like spans sent with the old names. The value is copied, not moved:
 * queries and views that use the stable name keep working, and the rule chain and group ids
 * (spanSystem.ts reads both names) are unchanged. Only when the old name is absent and the stable
 * one holds a non-empty string (a promoted column only takes strings).
 *
 * The other renamed attributes (`http.request.method`, `http.response.status_code`, `url.path`,
 * `url.full`, `server.address`, `db.namespace`, ...) have no column; the system rules read them
 * under both names already (spanSystem.ts).
 */
const STABLE_NAMES: ReadonlyArray<readonly [old: string, stable: string]> = [
  ['deployment.environment', 'deployment.environment.name'],
  ['db.system', 'db.system.name'],
  ['db.statement', 'db.query.text'],
  ['db.operation', 'db.operation.name'],
  ['db.sql.table', 'db.collection.name'],
];

/**
 * Copies the stable names' values to the old names (see STABLE_NAMES) in `attrs`, reading them
 * from `from` (a span event's own attributes, so that they win over its span's). Spans call it
 * after their group id is made: `db.operation` and `db.sql.table` are group keys (spanSystem.ts
 * DB_KEYS), and a copy hashed in would move every current-SDK db span to a new group.
 */
export function copyStableNames(attrs: AttrMap, from: AttrMap = attrs): void {
  for (const [old, stable] of STABLE_NAMES) {
    if (from[old] !== undefined) continue;
    const v = from[stable];
    if (typeof v === 'string' && v !== '') attrs[old] = v;
  }
}

const SEVERITY_ALIASES = ['log_severity', 'severity', 'error_severity', 'log.level', 'level'] as const;

/** Every key normalizeAliases may move; a map holding none of them needs no pass. */
export const ALIAS_KEYS: ReadonlySet<string> = new Set([
  ...ALIASES.flatMap(([, aliases]) => aliases),
  ...SEVERITY_ALIASES,
]);

/** The canonical keys the aliases map to (log.severity included). */
export const ALIAS_CANONICAL_KEYS: readonly string[] = [...ALIASES.map(([canonical]) => canonical), 'log.severity'];

export function normalizeAliases(attrs: AttrMap): void {
  for (const [canonical, aliases] of ALIASES) {
    if (attrs[canonical] !== undefined) continue;
    for (const alias of aliases) {
      const v = attrs[alias];
      if (typeof v === 'string' && v !== '') {
        attrs[canonical] = v;
        delete attrs[alias];
        break;
      }
    }
  }
  // Severity aliases count only when they hold a recognisable severity, stored normalised.
  // An existing `log.severity` is left as it is here (it is normalised when a log row is built).
  if (attrs['log.severity'] === undefined) {
    for (const alias of SEVERITY_ALIASES) {
      const sev = normalizeSeverity(attrs[alias]);
      if (sev !== undefined) {
        attrs['log.severity'] = sev;
        delete attrs[alias];
        break;
      }
    }
  }
}
