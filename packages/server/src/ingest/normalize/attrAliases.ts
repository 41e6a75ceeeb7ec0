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
