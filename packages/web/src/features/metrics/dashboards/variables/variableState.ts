import { ALL_VALUE, variableParams, type DashboardVariable } from '@lantern/shared';
import { useMemo } from 'react';
import { useAddressState } from '../../../../lib/url/useAddressState';

/**
 * The values picked for a dashboard's variables (issue 41), kept in the address as Grafana does:
 * `var-service=checkout`, repeated for several, `var-service=$__all` for All. Without one in the
 * address a variable offering All is All, a fixed list its first value, and an attribute's values
 * All until the picker has them and picks the first.
 */
export type Picked = string[] | 'all';

export const addressKey = (name: string) => `var-${name}`;

export function pickedValue(v: DashboardVariable, params: URLSearchParams): Picked {
  const raw = params.getAll(addressKey(v.name));
  if (raw.includes(ALL_VALUE)) return 'all';
  if (raw.length) return v.multi ? raw : raw.slice(0, 1);
  if (v.includeAll || v.kind === 'attribute') return 'all';
  return v.values.slice(0, 1);
}

export function pickedValues(vars: readonly DashboardVariable[], params: URLSearchParams): Map<string, Picked> {
  return new Map(vars.map((v) => [v.name, pickedValue(v, params)]));
}

/** What a picker writes in the address. */
export const addressValue = (picked: Picked): string[] => (picked === 'all' ? [ALL_VALUE] : picked);

/**
 * The dashboard's range with its variables' values as the metrics calls' `var` parameter; the same
 * object when it has none (the panels' and the prefetch's call keys must match).
 */
export function withVariables<R extends object>(
  range: R,
  vars: readonly DashboardVariable[],
  params: URLSearchParams,
): R & { var?: string[] } {
  return vars.length ? { ...range, var: variableParams(pickedValues(vars, params)) } : range;
}

/** `range` with the variables picked in the address (withVariables), kept while they stay the same. */
export function useVariableRange<R extends object>(
  range: R,
  vars: readonly DashboardVariable[],
): R & { var?: string[] } {
  const { params } = useAddressState();
  const picked = vars.length ? variableParams(pickedValues(vars, params)) : [];
  const key = JSON.stringify(picked);
  // The same object while the picked values stay the same (`key`), whatever else the address does.
  return useMemo(
    () => (vars.length ? { ...range, var: JSON.parse(key) as string[] } : range),
    [range, vars.length, key],
  );
}
