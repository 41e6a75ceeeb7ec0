import type { ErrorMatcher } from '@lantern/shared';

/** Pure rules of the monitor forms (spec platform §2.10). */

export const blankMatcher = (): ErrorMatcher => ({ attr: '', op: '=', value: '' });
export const isBlank = (m: ErrorMatcher) => !m.attr && !m.value;

/** At least one blank matcher row is always shown (spec platform §2.10): one is added when none is left. */
export const withBlankRow = (ms: ErrorMatcher[]): ErrorMatcher[] => (ms.some(isBlank) ? ms : [...ms, blankMatcher()]);
