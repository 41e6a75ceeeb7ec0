import type { AttrMap } from '../spanRow';
import { textAttr } from './attrValue';

/** Per-project settings that change grouping (reference ingest §2.4: loaded per batch). */
export interface NormalizeOptions {
  projectId: number;
  /** Put `deployment.environment` into group ids, so prod and staging groups are separate. */
  groupByEnv: boolean;
  /** Give function spans at service boundaries a `funcs:<service>` system (§2.7 rule 5). */
  groupFuncsByService: boolean;
}

/** The environment part of a group id: '' unless the project groups by environment. */
export function groupEnv(attrs: AttrMap, options: NormalizeOptions): string {
  return options.groupByEnv ? textAttr(attrs, 'deployment.environment', 'deployment.environment.name') : '';
}
