// Label matchers: whether a label value satisfies one (a missing label has the value "").
import { compileRegex } from './literals';
import type { LabelMatcher, Labels } from './source';

export function matchesValue(m: LabelMatcher, value: string): boolean {
  switch (m.type) {
    case '=':
      return m.value === value;
    case '!=':
      return m.value !== value;
    case '=~':
      return compileRegex(m.value).test(value);
    case '!~':
      return !compileRegex(m.value).test(value);
  }
}

export function matchesLabels(labels: Labels, m: LabelMatcher): boolean {
  return matchesValue(m, labels[m.name] ?? '');
}
