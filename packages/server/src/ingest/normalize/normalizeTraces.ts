import type { OtlpScope, OtlpTracesRequest } from '../otlp';
import type { SpanRow } from '../spanRow';
import { ALIAS_KEYS } from './attrAliases';
import { addAttrs } from './attrValue';
import { normalizeSpan, type ScopeAttrs } from './normalizeSpan';
import type { NormalizeOptions } from './options';

/**
 * A decoded OTLP trace request → rows: every span, then each of its events as its own row.
 * Attributes merge resource → scope → span, later wins (reference ingest §2.2); the resource and
 * scope part is built once per scope, not once per span.
 */
export function normalizeTraces(req: OtlpTracesRequest, options: NormalizeOptions): SpanRow[] {
  const rows: SpanRow[] = [];
  for (const rs of req.resourceSpans) {
    const resource: ScopeAttrs = { attrs: {}, hasAliasKey: false };
    resource.hasAliasKey = addAttrs(resource.attrs, rs.resource.attributes, ALIAS_KEYS);
    for (const ss of rs.scopeSpans) {
      const base = withScope(resource, ss.scope);
      for (const span of ss.spans) normalizeSpan(span, base, options, rows);
    }
  }
  return rows;
}

function withScope(resource: ScopeAttrs, scope: OtlpScope): ScopeAttrs {
  const attrs = { ...resource.attrs };
  if (scope.name !== '') attrs['otel.library.name'] = scope.name;
  if (scope.version !== '') attrs['otel.library.version'] = scope.version;
  const hasAliasKey = addAttrs(attrs, scope.attributes, ALIAS_KEYS);
  return { attrs, hasAliasKey: resource.hasAliasKey || hasAliasKey };
}
