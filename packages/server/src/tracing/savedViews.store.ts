import { CORE_ATTRS, MAX_SAVED_VIEWS, type SavedView, type SavedViewInput } from '@lantern/shared';
import { projectHasRoom, type MetadataDb } from '../storage/metadata';
import type { Selectable } from 'kysely';
import type { AuthTables } from '../auth';
import type { TracingTables } from './tracing.migration';

/** Saved views (per project, visible to every user of it) and per-user pinned facets. */
export function createTracingMetaStore(metadata: MetadataDb) {
  const db = metadata.withTables<TracingTables & AuthTables>();

  const toView = (
    r: Selectable<TracingTables['saved_views']> & { user_name: string | null; user_email: string | null },
  ): SavedView => ({
    id: Number(r.id),
    userId: Number(r.user_id),
    projectId: Number(r.project_id),
    name: r.name,
    route: r.route,
    params: JSON.parse(r.params) as Record<string, unknown>,
    query: JSON.parse(r.query) as Record<string, unknown>,
    pinned: Boolean(Number(r.pinned)),
    createdAt: r.created_at,
    user: { id: Number(r.user_id), name: r.user_name ?? '', email: r.user_email ?? '' },
  });

  const selectViews = () =>
    db
      .selectFrom('saved_views as v')
      .leftJoin('users as u', 'u.id', 'v.user_id')
      .select([
        'v.id',
        'v.user_id',
        'v.project_id',
        'v.name',
        'v.route',
        'v.params',
        'v.query',
        'v.pinned',
        'v.created_at',
        'u.name as user_name',
        'u.email as user_email',
      ]);

  return {
    /** Pinned first, then newest first. */
    async listViews(projectId: number): Promise<SavedView[]> {
      const rows = await selectViews()
        .where('v.project_id', '=', projectId)
        .orderBy('v.pinned', 'desc')
        .orderBy('v.created_at', 'desc')
        .orderBy('v.id', 'desc')
        .limit(MAX_SAVED_VIEWS)
        .execute();
      return rows.map(toView);
    },

    /**
     * Saves a view unless the project holds MAX_SAVED_VIEWS already ('full', nothing written). The
     * count and the insert run in one transaction under the project's lock (`projectHasRoom`),
     * so concurrent saves count one after the other.
     */
    async createView(
      projectId: number,
      userId: number,
      input: SavedViewInput & { params: Record<string, unknown>; query: Record<string, unknown> },
    ): Promise<SavedView | 'full'> {
      const row = await db.transaction().execute(async (trx) => {
        if (!(await projectHasRoom(trx, 'saved_views', projectId, MAX_SAVED_VIEWS))) return undefined;
        return trx
          .insertInto('saved_views')
          .values({
            user_id: userId,
            project_id: projectId,
            name: input.name,
            route: input.route,
            params: JSON.stringify(input.params),
            query: JSON.stringify(input.query),
            pinned: 0,
            created_at: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      });
      if (!row) return 'full';
      const view = await selectViews().where('v.id', '=', Number(row.id)).executeTakeFirstOrThrow();
      return toView(view);
    },

    /** Whether a view of this id exists in any project (to tell "not yours", 403, from "no such", 404). */
    async viewExists(id: number): Promise<boolean> {
      const row = await db.selectFrom('saved_views').select('id').where('id', '=', id).executeTakeFirst();
      return row !== undefined;
    },

    /** False when the view does not exist in this project. */
    async deleteView(projectId: number, id: number): Promise<boolean> {
      const r = await db
        .deleteFrom('saved_views')
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },

    async setPinned(projectId: number, id: number, pinned: boolean): Promise<boolean> {
      const r = await db
        .updateTable('saved_views')
        .set({ pinned: pinned ? 1 : 0 })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** The user's pinned attributes: their own pins plus the core attributes they did not unpin, core first. */
    async pinnedFacets(userId: number): Promise<string[]> {
      const rows = await db
        .selectFrom('pinned_facets')
        .select(['attr', 'unpinned'])
        .where('user_id', '=', userId)
        .execute();
      const unpinned = new Set(rows.filter((r) => Number(r.unpinned)).map((r) => r.attr));
      const attrs = new Set<string>(CORE_ATTRS.filter((a) => !unpinned.has(a)));
      for (const r of rows) if (!Number(r.unpinned)) attrs.add(r.attr);
      return sortCoreFirst([...attrs]);
    },

    async setFacetPinned(userId: number, attr: string, pinned: boolean): Promise<void> {
      await db
        .insertInto('pinned_facets')
        .values({ user_id: userId, attr, unpinned: pinned ? 0 : 1 })
        .onConflict((oc) => oc.columns(['user_id', 'attr']).doUpdateSet({ unpinned: pinned ? 0 : 1 }))
        .execute();
    },
  };
}

export type TracingMetaStore = ReturnType<typeof createTracingMetaStore>;

const CORE_RANK = new Map<string, number>(CORE_ATTRS.map((a, i) => [a, i]));
/** Core attributes in their fixed order, then the rest alphabetically (reference query §6.1). */
export function sortCoreFirst(keys: string[]): string[] {
  return keys.sort((a, b) => {
    const ra = CORE_RANK.get(a);
    const rb = CORE_RANK.get(b);
    if (ra !== undefined || rb !== undefined) return (ra ?? Infinity) - (rb ?? Infinity);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}
