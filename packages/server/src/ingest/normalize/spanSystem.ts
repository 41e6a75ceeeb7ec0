import type { SpanKind } from '@lantern/shared';
import type { AttrMap } from '../spanRow';
import { textAttr } from './attrValue';
import { isKeyValueSystem, kvCommand, templateKv } from './kvStatement';
import { templateMessage } from './messageTemplate';
import { sqlKeywordDigest } from './sqlKeywords';
import { templateSql } from './sqlTemplate';

/**
 * Span system and type (reference ingest §2.7): a first-match rule chain over the span's merged
 * attributes that decides which system a span belongs to (`rpc:<svc>`, `messaging:<system>`,
 * `db:<system>`, `http:<svc>`, `funcs[:<svc>]`), which attributes refine its group id, and, for db
 * spans, its display name and group name (the statement template; key-value stores group by
 * command, kvStatement.ts). Events use eventSystem.ts instead.
 *
 * The reference predates the stable OpenTelemetry semantic conventions; where a rule reads an old
 * name it also reads the stable one (`db.system.name`, `db.query.text`, `url.path`,
 * `http.request.method`, ...), so spans from current SDKs classify the same way.
 */
export interface SpanClass {
  type: string;
  system: string;
  /** Attribute keys hashed into the group id, in order, when present (§2.7 "extra keys"). */
  hashKeys: readonly string[];
  /** Appended to the group hash (the SQL keyword digest for db spans), or ''. */
  hashSuffix: string;
  /** Display name chosen by the rule (db statement), or '' to use the default (§2.9). */
  displayName: string;
  /**
   * The name of the row's group when the rule chose a display name: its template (the statement
   * or message with placeholders for its variable parts), or '' for the display name itself.
   */
  groupName: string;
}

export interface SpanShape {
  parentId: bigint;
  kind: SpanKind;
}

const RPC_KEYS = ['rpc.system', 'rpc.service', 'rpc.method'];
const MESSAGING_KEYS = [
  'messaging.system',
  'messaging.operation',
  'messaging.operation.name',
  'messaging.destination.name',
  'messaging.destination.kind',
];
const DB_KEYS = ['db.name', 'db.namespace', 'db.operation', 'db.operation.name', 'db.sql.table', 'db.collection.name'];
const HTTP_KEYS = ['http.method', 'http.request.method', 'http.route'];
const NO_KEYS: readonly string[] = [];

/** `service.name`, or `unknown` (§2.7 `svc`). */
export function serviceName(attrs: AttrMap): string {
  return textAttr(attrs, 'service.name') || 'unknown';
}

export function classifySpan(attrs: AttrMap, span: SpanShape, groupFuncsByService: boolean): SpanClass {
  if (textAttr(attrs, 'rpc.system')) {
    return {
      type: 'rpc',
      system: `rpc:${serviceName(attrs)}`,
      hashKeys: RPC_KEYS,
      hashSuffix: '',
      displayName: '',
      groupName: '',
    };
  }
  const messaging = textAttr(attrs, 'messaging.system');
  if (messaging) {
    return {
      type: 'messaging',
      system: `messaging:${messaging}`,
      hashKeys: MESSAGING_KEYS,
      hashSuffix: '',
      displayName: '',
      groupName: '',
    };
  }
  const dbSystem = textAttr(attrs, 'db.system', 'db.system.name');
  // A statement of any type marks a db span; only a non-empty string one names it and is digested.
  const hasStatement = attrs['db.statement'] !== undefined || attrs['db.query.text'] !== undefined;
  if (dbSystem || hasStatement) {
    const statement = textAttr(attrs, 'db.statement', 'db.query.text');
    return {
      type: 'db',
      system: `db:${dbSystem || 'unknown_db'}`,
      hashKeys: DB_KEYS,
      ...dbStatementGroup(dbSystem, statement),
    };
  }
  // `http.path`: what Zipkin tracers (Brave, zipkin-js) tag an HTTP span's path with.
  if (
    attrs['http.route'] !== undefined ||
    attrs['http.target'] !== undefined ||
    attrs['url.path'] !== undefined ||
    attrs['http.path'] !== undefined
  ) {
    return {
      type: 'http',
      system: `http:${serviceName(attrs)}`,
      hashKeys: HTTP_KEYS,
      hashSuffix: '',
      displayName: '',
      groupName: '',
    };
  }
  // Functions: with groupFuncsByService, only spans that mark a service boundary or a named
  // function get the service in their system; inner spans stay in the shared `funcs`.
  if (groupFuncsByService && (span.parentId === 0n || span.kind !== 'internal' || hasCodeFunction(attrs))) {
    return {
      type: 'funcs',
      system: `funcs:${serviceName(attrs)}`,
      hashKeys: NO_KEYS,
      hashSuffix: '',
      displayName: '',
      groupName: '',
    };
  }
  return { type: 'funcs', system: 'funcs', hashKeys: NO_KEYS, hashSuffix: '', displayName: '', groupName: '' };
}

/**
 * A db span's suffix and names from its statement. Key-value commands group by command; SQL by
 * the keywords of its template, so statements with one template share one group. Document stores
 * (MongoDB, Elasticsearch) send a JSON query: it keeps its keys and loses its values.
 */
function dbStatementGroup(
  dbSystem: string,
  statement: string,
): Pick<SpanClass, 'hashSuffix' | 'displayName' | 'groupName'> {
  if (statement === '') return { hashSuffix: '', displayName: '', groupName: '' };
  if (isKeyValueSystem(dbSystem))
    return { hashSuffix: kvCommand(statement), displayName: statement, groupName: templateKv(statement) };
  const template = statement.trimStart().startsWith('{') ? templateMessage(statement) : templateSql(statement);
  return { hashSuffix: templateDigest(template), displayName: statement, groupName: template };
}

function hasCodeFunction(attrs: AttrMap): boolean {
  return attrs['code.function'] !== undefined || attrs['code.function.name'] !== undefined;
}

/**
 * The keyword digest of a statement template, memoised: statements vary with their values, their
 * templates repeat (that is what they are for). Bounded, and pure either way.
 */
const digests = new Map<string, string>();
function templateDigest(template: string): string {
  let d = digests.get(template);
  if (d === undefined) {
    if (digests.size >= 5_000) digests.clear();
    d = sqlKeywordDigest(template);
    digests.set(template, d);
  }
  return d;
}
