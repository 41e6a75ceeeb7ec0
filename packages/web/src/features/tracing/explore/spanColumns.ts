import { BUILTIN_FIELDS, parseQuery, type Name, type Span } from '@lantern/shared';
import { formatUnit, NO_VALUE } from '../../../lib/format/number';

/**
 * The extra columns of the span list (spec §2 Spans tab: "Span Name, System, chips, extra columns,
 * Time, Dur."): each attribute the query groups by, and each attribute an aggregation reads
 * (`p50(http.response_size)` shows the span's own `http.response_size`). So
 * `group by host.name | avg(db.rows)` lists every span with its host and its row count.
 * Left out: what the list already shows (name, system, time, duration), the group id (the name
 * says it) and aggregates that read no attribute of the span (`.count`, `.error_rate`, `count()`).
 */
export interface SpanColumn {
  /** Canonical attribute key: `host.name`, `.status_code`. */
  key: string;
  /** The unit of the span's value; '' for attributes. */
  unit: string;
}

/** Built-in fields the span list shows anyway, or that mean nothing for one span. */
const SHOWN = new Set([
  '.name',
  '.display_name',
  'display.name',
  '.event_name',
  '.time',
  '.duration',
  '.group_id',
  '.system',
  '.is_event',
  '.type',
]);

/** Per-span value of a built-in field (the rest of the builtins are aggregates). */
const BUILTIN_VALUE: Record<string, (s: Span) => unknown> = {
  '.id': (s) => s.id,
  '.parent_id': (s) => s.parentId,
  '.trace_id': (s) => s.traceId,
  '.kind': (s) => s.kind,
  '.status_code': (s) => s.statusCode,
  '.status_message': (s) => s.statusMessage,
  '.event_count': (s) => s.events?.length ?? 0,
  '.link_count': (s) => s.links?.length ?? 0,
};

/** The attribute a name reads for one span, or undefined when it reads none. */
function spanAttr(name: Name): string | undefined {
  const inner = name.inner ?? name;
  const attr = inner.attr;
  if (!attr || SHOWN.has(attr)) return undefined;
  if (attr.startsWith('.') && !BUILTIN_VALUE[attr]) return undefined;
  return attr;
}

export function spanColumns(query: string): SpanColumn[] {
  const out: SpanColumn[] = [];
  const add = (name: Name) => {
    const key = spanAttr(name);
    if (key === undefined || out.some((c) => c.key === key)) return;
    out.push({ key, unit: BUILTIN_FIELDS[key]?.unit ?? '' });
  };
  for (const part of parseQuery(query)) {
    if (part.ast?.kind === 'group') part.ast.names.forEach(add);
    if (part.ast?.kind === 'select') part.ast.columns.forEach((c) => add(c.name));
  }
  return out;
}

/** The span's value of a column: the builtin's field, else the attribute. */
export function spanValue(span: Span, key: string): unknown {
  const builtin = BUILTIN_VALUE[key];
  if (builtin) return builtin(span);
  return span.attrs[key];
}

/** A column's text for one span: '–' when the span has no such attribute. */
export function spanValueText(span: Span, column: SpanColumn): string {
  const value = spanValue(span, column.key);
  if (value === undefined || value === null) return NO_VALUE;
  // Attribute values (ids, status codes, ports) read as sent; only values with a unit are scaled.
  if (!column.unit && typeof value === 'number') return String(value);
  return formatUnit(value, column.unit);
}
