import type { AttrKeyKind } from '@lantern/shared';
import { BUILTIN_FIELDS } from '@lantern/shared';

/** The span fields an attr-keys request offers beside the attributes (reference query §6.1). */
const TEXT_BUILTINS = ['.system', '.kind', '.name', '.event_name', '.status_code', '.status_message'];
const GROUP_BUILTINS = [
  '.system',
  '.group_id',
  '.type',
  '.name',
  '.event_name',
  '.display_name',
  '.kind',
  '.status_code',
  '.status_message',
];
const fields = Object.entries(BUILTIN_FIELDS);
const ALL_BUILTINS = fields.map(([k]) => k);
const PER_ROW_BUILTINS = fields.filter(([, f]) => !f.aggregate).map(([k]) => k);
/** The numeric span fields of the reference's table (§1.4); `.is_event` is a flag, not a number. */
const NUMERIC_BUILTINS = fields.filter(([k, f]) => f.numeric && !f.aggregate && k !== '.is_event').map(([k]) => k);
const NUMERIC_AGG_BUILTINS = fields.filter(([, f]) => f.numeric && f.aggregate).map(([k]) => k);

/** The span fields offered for a request: a function's argument is never an aggregate. */
export function builtinKeys(kind: AttrKeyKind, withColumns: boolean, forFunc: boolean): string[] {
  switch (kind) {
    case 'text':
      return withColumns ? ALL_BUILTINS : TEXT_BUILTINS;
    case 'number':
      return withColumns && !forFunc ? [...NUMERIC_BUILTINS, ...NUMERIC_AGG_BUILTINS] : NUMERIC_BUILTINS;
    case 'group':
      return withColumns || forFunc ? PER_ROW_BUILTINS : GROUP_BUILTINS;
  }
}
