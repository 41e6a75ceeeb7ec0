import { z } from 'zod';
import { normalizeUnit } from '../config/units';
import { parseAliased, parseSpanExpr, SPAN_COLUMNS, SpanExprError, type SpanExpr } from './spanMetricExpr';

/**
 * `metrics_from_spans`: metrics derived from every span row as it is stored (reference ingest §3.5,
 * §4.2), folded per minute at ingest and written with the spans, before they are acknowledged
 * (spanMetricPoints.ts). Each expression is parsed here, so a bad definition is refused at start-up with the key
 * that holds it (e.g. `metrics_from_spans.1.where: unknown span column .foo`).
 *
 * Instruments: `histogram` (the value's distribution per minute: count, sum, min, max and buckets,
 * so p50/p90/p99/avg/count work) and `counter` (the value summed per minute). Gauges and additive
 * levels have no meaning over a stream of spans and are refused rather than half-written (the
 * reference created such views against a column that no longer existed).
 */
const METRIC_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;

function exprField(parse: (src: string) => unknown, check?: (src: string) => string | null, optional = false) {
  return z
    .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be text') })
    .superRefine((src, ctx) => {
      if (optional && src.trim() === '') return;
      try {
        parse(src);
        const problem = check?.(src);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      } catch (err) {
        if (!(err instanceof SpanExprError)) throw err;
        ctx.addIssue({ code: 'custom', message: `${err.message} in ${JSON.stringify(src)}` });
      }
    });
}

/** A value must be a number: a string column or literal at its top is a mistake. */
function numericProblem(src: string): string | null {
  const e: SpanExpr = parseSpanExpr(src);
  if (e.kind === 'string') return `the value must be a number, not the string ${JSON.stringify(e.value)}`;
  if (e.kind === 'column' && SPAN_COLUMNS[e.name] === 'string') return `the value must be a number; .${e.name} is text`;
  return null;
}

const definition = z
  .object({
    name: z
      .string()
      .regex(
        METRIC_NAME,
        'must be a metric name: letters, digits and _ in dot-separated words, e.g. lantern.tracing.spans',
      ),
    description: z.string().default(''),
    instrument: z.enum(['histogram', 'counter'], {
      message: 'must be histogram or counter (gauges and additive levels have no meaning over spans)',
    }),
    /** Normalised like OTLP units (`ms` -> milliseconds), so the query language converts between them. */
    unit: z.string().default('').transform(normalizeUnit),
    /** Per row: the histogram's observation, or what the counter adds. */
    value: exprField(parseSpanExpr, numericProblem),
    /** The metric's attributes: `expr` or `expr as name`. Text values. */
    attrs: z.array(exprField(parseAliased)).default([]),
    /** Attributes kept per series but not part of its identity (names in legends and tables). */
    annotations: z.array(exprField(parseAliased)).default([]),
    /** Which rows count; empty: all. */
    where: exprField(parseSpanExpr, undefined, true).default(''),
  })
  .strict()
  .superRefine((d, ctx) => {
    const aliases = d.attrs.map((a) => parseAliased(safe(a)).alias);
    const dup = aliases.find((a, i) => aliases.indexOf(a) !== i);
    if (dup) ctx.addIssue({ code: 'custom', path: ['attrs'], message: `attribute ${dup} appears twice` });
  });

/** parseAliased never throws on an entry that passed its own field check; this keeps refine total. */
function safe(src: string): string {
  try {
    parseAliased(src);
    return src;
  } catch {
    return 'x';
  }
}

export type SpanMetricDefinition = z.infer<typeof definition>;

export const DEFAULT_METRICS_FROM_SPANS: SpanMetricDefinition[] = [
  {
    name: 'lantern.tracing.spans',
    description: 'Spans duration (excluding events and logs)',
    instrument: 'histogram',
    unit: 'microseconds',
    value: '.duration / 1000',
    attrs: ['.system', '.group_id', 'service.name', 'host.name', '.status_code'],
    annotations: ['display.name'],
    where: ".event_name = ''",
  },
  {
    name: 'lantern.tracing.events',
    description: 'Events and logs count (excluding spans)',
    instrument: 'counter',
    unit: '',
    value: '.count',
    attrs: ['.system', '.group_id', '.event_name as .name', 'host.name', 'log.severity'],
    annotations: ['display.name'],
    where: '.is_event = 1',
  },
];

/** Names become view names (dots -> _): two names that read the same there would share a view. */
export const metricsFromSpansSchema = z
  .array(definition)
  .default(DEFAULT_METRICS_FROM_SPANS)
  .superRefine((defs, ctx) => {
    const seen = new Map<string, string>();
    defs.forEach((d, i) => {
      const key = spanMetricViewKey(d.name);
      const prev = seen.get(key);
      if (prev !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: [i, 'name'],
          message: `${d.name} clashes with ${prev} (metric names must be unique)`,
        });
      else seen.set(key, d.name);
    });
  });

/** The part of a view's name that identifies its metric. */
export function spanMetricViewKey(name: string): string {
  return name.toLowerCase().replace(/\./g, '_');
}
