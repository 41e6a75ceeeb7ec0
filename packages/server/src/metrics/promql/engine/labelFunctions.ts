// label_replace and label_join: rewrite one label of every series; the metric name stays.
import { PromQLError } from './errors';
import { compileRegex } from './literals';
import type { Labels } from './source';
import { mergeSameLabels, type StepSeries } from './values';

/** Prometheus 3 accepts any non-empty UTF-8 label name (model.UTF8Validation). */
const LABEL_NAME = /^.+$/su;

/** Go's Regexp.Expand template: $1, ${1}, $name, ${name}, $$; unknown groups give "". */
function expand(template: string, m: RegExpExecArray): string {
  return template.replace(
    /\$(\$|\{([^}]*)\}|([A-Za-z0-9_]+))/g,
    (_all, tok: string, braced?: string, bare?: string) => {
      if (tok === '$') return '$';
      const name = braced ?? bare ?? '';
      if (/^\d+$/.test(name)) return m[Number(name)] ?? '';
      return m.groups?.[name] ?? '';
    },
  );
}

function withLabel(labels: Labels, name: string, value: string): Labels {
  const out = { ...labels };
  if (value === '') delete out[name];
  else out[name] = value;
  return out;
}

export function labelReplace(
  series: StepSeries[],
  dst: string,
  replacement: string,
  src: string,
  regex: string,
): StepSeries[] {
  let re: RegExp;
  try {
    re = compileRegex(regex);
  } catch (e) {
    throw new PromQLError(
      'execution',
      `invalid regular expression in label_replace(): ${regex}: ${(e as Error).message}`,
    );
  }
  if (!LABEL_NAME.test(dst))
    throw new PromQLError('execution', `invalid destination label name in label_replace(): ${dst}`);
  const out = series.map((s) => {
    const m = re.exec(s.labels[src] ?? '');
    if (!m) return s;
    return { ...s, labels: withLabel(s.labels, dst, expand(replacement, m)) };
  });
  return mergeSameLabels(out);
}

export function labelJoin(series: StepSeries[], dst: string, sep: string, srcs: string[]): StepSeries[] {
  if (!LABEL_NAME.test(dst))
    throw new PromQLError('execution', `invalid destination label name in label_join(): ${dst}`);
  for (const src of srcs) {
    if (!LABEL_NAME.test(src)) throw new PromQLError('execution', `invalid source label name in label_join(): ${src}`);
  }
  const out = series.map((s) => ({
    ...s,
    labels: withLabel(s.labels, dst, srcs.map((l) => s.labels[l] ?? '').join(sep)),
  }));
  return mergeSameLabels(out);
}
