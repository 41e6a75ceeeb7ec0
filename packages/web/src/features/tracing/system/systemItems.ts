import type { SystemStats } from '@lantern/shared';
import { isEventSystem, isLogSystem, isSpanSystem } from '../query/defaultQueries';

/**
 * The system picker's list (reference frontend §1.3.7): a synthetic `all` summed over real
 * systems, a `<type>:all` entry for every type with more than one system (its members indented),
 * sorted by name; systems chosen in the address but absent from the data are kept with zero counts.
 * Narrowed to one kind (the system group picker's Spans / Logs / Events), the list holds that
 * kind's systems, grouped by type among themselves, under the kind's own entry (`spans:all`,
 * `log:all`, `events:all`) summed over them, right after `all`.
 */
export interface SystemItem {
  system: string;
  count: number;
  rate: number;
  errorCount: number;
  errorRate: number;
  groupCount: number;
  isGroup: boolean;
  indent: boolean;
}

const typeOf = (system: string) => (system.includes(':') ? system.slice(0, system.indexOf(':')) : system);

function sum(system: string, list: SystemStats[], isGroup: boolean): SystemItem {
  const count = list.reduce((s, x) => s + x.count, 0);
  const errorCount = list.reduce((s, x) => s + x.errorCount, 0);
  return {
    system,
    count,
    rate: list.reduce((s, x) => s + x.rate, 0),
    errorCount,
    errorRate: count ? errorCount / count : 0,
    groupCount: list.reduce((s, x) => s + x.groupCount, 0),
    isGroup,
    indent: false,
  };
}

export function systemItems(systems: SystemStats[], active: string[] = [], kind?: SystemKind): SystemItem[] {
  const listed = kind ? systems.filter((s) => inKind(s.system, kind)) : systems;
  const byType = new Map<string, SystemStats[]>();
  for (const s of listed) {
    const t = typeOf(s.system);
    if (!byType.has(t)) byType.set(t, []);
    byType.get(t)!.push(s);
  }
  const head: SystemItem[] = [sum('all', systems, true)];
  if (kind) head.push(sum(KIND_ALL[kind], listed, true));
  const items: SystemItem[] = [];
  for (const [type, list] of byType) {
    const grouped = list.length > 1;
    if (grouped && !head.some((h) => h.system === `${type}:all`)) items.push(sum(`${type}:all`, list, true));
    for (const s of list) items.push({ ...sum(s.system, [s], false), indent: grouped });
  }
  // Chosen systems are never dropped: of another kind with their counts, unknown ones with zeros.
  for (const a of active) {
    if (head.some((i) => i.system === a) || items.some((i) => i.system === a)) continue;
    const known = systems.find((s) => s.system === a);
    items.push(known ? sum(a, [known], false) : sum(a, [], a.endsWith(':all')));
  }
  const key = (i: SystemItem) =>
    i.isGroup ? `${i.system.replace(':all', '')}:` : i.system.includes(':') ? i.system : `${i.system}:`;
  return [...head, ...items.sort((a, b) => key(a).localeCompare(key(b)))];
}

/**
 * The selection after a click on a system (reference frontend §1.3.7): its checkbox toggles it in a
 * multi-selection, where a `*:all` replaces everything and a specific system drops any `*:all`;
 * the row itself selects only that system, or clears the selection when it was the only one (the
 * picker then falls back to the first item).
 */
export function pickSystems(value: string[], system: string, how: 'toggle' | 'only'): string[] {
  if (how === 'only') return value.length === 1 && value[0] === system ? [] : [system];
  if (value.includes(system)) return value.filter((s) => s !== system);
  if (system.endsWith('all')) return [system];
  return [...value.filter((s) => !s.endsWith('all')), system];
}

export type SystemKind = 'spans' | 'logs' | 'events';

export function kindOf(system: string): SystemKind {
  if (system === 'spans:all') return 'spans';
  if (system === 'log:all' || (isLogSystem(system) && !isEventSystem(system))) return 'logs';
  if (isEventSystem(system)) return 'events';
  return 'spans';
}

/**
 * Whether a system is listed under a kind (reference frontend §1.3.7): log systems are every
 * `log:*`, event systems include the error logs, so `log:error` is under both, as `log:all` and
 * `events:all` both select it. (Leaving it out of Logs made 'Logs (6)' open 8 groups.)
 */
export function inKind(system: string, kind: SystemKind): boolean {
  if (kind === 'logs') return isLogSystem(system);
  if (kind === 'events') return isEventSystem(system);
  return isSpanSystem(system);
}

export const KIND_ALL: Record<SystemKind, string> = { spans: 'spans:all', logs: 'log:all', events: 'events:all' };

/** Buttons of the system group picker: a kind shows when it has at least one real system; n = its groups. */
export function systemKinds(systems: SystemStats[]): { kind: SystemKind; groupCount: number }[] {
  const out: { kind: SystemKind; groupCount: number }[] = [];
  for (const kind of ['spans', 'logs', 'events'] as const) {
    const list = systems.filter((s) => inKind(s.system, kind));
    if (list.length > 0) out.push({ kind, groupCount: list.reduce((n, s) => n + s.groupCount, 0) });
  }
  return out;
}
