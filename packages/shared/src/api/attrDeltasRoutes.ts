import { z } from 'zod';
import { route } from './contract';
import { MAX_TEXT_LENGTH, tooLong } from './textLimits';
import { TracingRangeParams } from './tracingQuery';

/**
 * "What changed" (issue 38): which attribute values set a selection of spans apart from the rest,
 * and the duration heatmap the selection is drawn on (Explore spans, Timeseries tab).
 */

export const AttrDeltasParams = TracingRangeParams.extend({
  /** `where` parts of the query language: the spans to explain (`where .duration > 500ms`). */
  selection: z
    .string({ error: '"selection" query param is required' })
    .min(1, '"selection" query param is required')
    .max(MAX_TEXT_LENGTH, tooLong(MAX_TEXT_LENGTH)),
});
export type AttrDeltasParams = z.input<typeof AttrDeltasParams>;

export const AttrDeltaValue = z.object({
  /** The value as text; for a numeric key's bin, `lo .. hi` (see `range`). */
  value: z.string(),
  /** A numeric key's bin: [lo, hi), the last bin [lo, hi] (the largest value seen). */
  range: z.tuple([z.number(), z.number()]).optional(),
  /** Share of the selection's spans with this value, 0..100. */
  selectionPct: z.number(),
  /** Share of the baseline's spans (matching the query, not the selection) with this value, 0..100. */
  baselinePct: z.number(),
});
export type AttrDeltaValue = z.infer<typeof AttrDeltaValue>;

export const AttrDelta = z.object({
  key: z.string(),
  /** The largest |selectionPct - baselinePct| of its values (percentage points, 0..100). */
  score: z.number(),
  /** Compared by quantile bins of its values rather than by value. */
  numeric: z.boolean(),
  /** Largest difference first. */
  values: z.array(AttrDeltaValue),
});
export type AttrDelta = z.infer<typeof AttrDelta>;

const SideCount = z.object({
  /** Spans matching (exact). */
  count: z.number(),
  /** Spans compared (the deterministic sample by trace id). */
  sampled: z.number(),
});

export const AttrDeltasResponse = z.object({
  /** Highest score first. */
  attrs: z.array(AttrDelta),
  selection: SideCount,
  baseline: SideCount,
});
export type AttrDeltasResponse = z.infer<typeof AttrDeltasResponse>;

export const DurationHeatmapParams = TracingRangeParams;
export type DurationHeatmapParams = z.input<typeof DurationHeatmapParams>;

export const DurationHeatmapResponse = z.object({
  heatmap: z.object({
    /** Bucket start times (RFC 3339). */
    xAxis: z.array(z.string()),
    /** Duration bins [lo, hi) in nanoseconds: 1, 2, 5 x 10^n. */
    yAxis: z.array(z.tuple([z.number(), z.number()])),
    /** [x index, y index, span count]. */
    data: z.array(z.tuple([z.number(), z.number(), z.number()])),
  }),
});
export type DurationHeatmapResponse = z.infer<typeof DurationHeatmapResponse>;

const errors = { 400: ['invalid_time', 'invalid_system', 'invalid_query'], 404: ['project_not_found'] } as const;
const tags = ['tracing'];

export const attrDeltasRoutes = {
  tracingAttrDeltas: route({
    id: 'tracingAttrDeltas',
    method: 'GET',
    path: '/api/v1/tracing/:projectId/attr-deltas',
    query: AttrDeltasParams,
    response: AttrDeltasResponse,
    errors,
    summary: 'What changed: attribute values whose share differs most between a selection of spans and the rest',
    tags,
  }),
  tracingDurationHeatmap: route({
    id: 'tracingDurationHeatmap',
    method: 'GET',
    path: '/api/v1/tracing/:projectId/duration-heatmap',
    query: DurationHeatmapParams,
    response: DurationHeatmapResponse,
    errors,
    summary: 'Span counts per time bucket and duration bin (heatmap)',
    tags,
  }),
};
