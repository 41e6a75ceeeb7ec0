import { GaugeLook } from '@lantern/shared';

/**
 * How a gauge shows its value (issue 41): text, a big stat number or a dial, with thresholds
 * (shared GaugeLook). Its rule beyond the contract, and its YAML keys:
 *
 * ```yaml
 * display: dial        # text (default), stat or dial
 * min: 0               # a dial's range (default 0 to 100)
 * max: 100
 * thresholds:          # ascending; below the first the gauge's own colour
 *   - { value: 80, color: '#F57C00' }
 *   - { value: 95, color: red }
 * ```
 */
export const GAUGE_LOOK_KEYS = ['display', 'min', 'max', 'thresholds'] as const;

/** What the contract cannot say alone: a dial's range must not be empty. */
export function gaugeLookProblem(g: GaugeLook): string | null {
  return g.min < g.max ? null : `a dial's min (${g.min}) must be below its max (${g.max})`;
}

/** The look of a YAML gauge mapping; problems at their path (`grid_gauges[0].thresholds[1].color`). */
export function readGaugeLookYaml(
  g: Record<string, unknown>,
  path: string,
  fail: (path: string, msg: string) => void,
): GaugeLook {
  const parsed = GaugeLook.safeParse({ display: g.display, min: g.min, max: g.max, thresholds: g.thresholds });
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      fail([path, ...issue.path].join('.').replace(/\.(\d+)/g, '[$1]'), issue.message);
    return GaugeLook.parse({});
  }
  const problem = gaugeLookProblem(parsed.data);
  if (problem) fail(`${path}.min`, problem);
  return parsed.data;
}

/** The YAML keys of a gauge's look: only what differs from a plain text gauge. */
export function gaugeLookToYaml(g: GaugeLook): Partial<Record<(typeof GAUGE_LOOK_KEYS)[number], unknown>> {
  return {
    ...(g.display !== 'text' ? { display: g.display } : {}),
    ...(g.min !== 0 ? { min: g.min } : {}),
    ...(g.max !== 100 ? { max: g.max } : {}),
    ...(g.thresholds.length ? { thresholds: g.thresholds.map((t) => ({ value: t.value, color: t.color })) } : {}),
  };
}
