import { attrDeltasRoutes, parseQuery } from '@lantern/shared';
import type { FastifyInstance } from 'fastify';
import { invalidInput } from '../../http/appError';
import { registerRoute } from '../../http/routes';
import { requireProject, type ProjectsService } from '../../projects';
import { compileQuery, type CompiledQuery } from '../query/compile';
import { scopeOf, storeRefusal } from '../query/query.routes';
import type { AttrDeltasService } from './attrDeltas.service';

export interface AttrDeltasRouteDeps {
  projects: ProjectsService;
  deltas: AttrDeltasService;
}

/**
 * The query language text of `name` compiled for span filters; a part the parser or the compiler
 * refuses is a 400 `invalid_query` with its message.
 */
function compiled(name: string, text: string, minutes: number): CompiledQuery {
  const q = compileQuery(text, 'filters', { minutes });
  const bad = q.parts.find((p) => p.error);
  if (bad) throw invalidInput('invalid_query', `${name}: ${bad.error}`);
  return q;
}

/** A selection is `where` parts of span filters only. */
function compiledSelection(text: string, minutes: number): CompiledQuery {
  const sel = compiled('selection', text, minutes);
  const other = parseQuery(text).find((p) => p.ast && p.ast.kind !== 'where');
  if (other) throw invalidInput('invalid_query', `selection: "${other.text}" is not a where part`);
  if (sel.parts.some((p) => p.disabled))
    throw invalidInput('invalid_query', 'selection: filters on aggregates are not allowed here');
  if (sel.where.length === 0) throw invalidInput('invalid_query', 'selection: give at least one filter');
  return sel;
}

/** `GET .../attr-deltas` and `GET .../duration-heatmap` (issue 38, "What changed"). */
export function registerAttrDeltasRoutes(app: FastifyInstance, deps: AttrDeltasRouteDeps): void {
  registerRoute(app, attrDeltasRoutes.tracingAttrDeltas, async ({ params, query }) => {
    const project = requireProject(deps.projects, params.projectId);
    const scope = scopeOf(project.id, query);
    const minutes = (scope.lt.getTime() - scope.gte.getTime()) / 60_000;
    const q = compiled('query', query.query ?? '', minutes);
    const sel = compiledSelection(query.selection, minutes);
    const tested = new Set(sel.whereNames.map((n) => n.attr));
    try {
      return await deps.deltas.attrDeltas(scope, q, sel, tested);
    } catch (err) {
      throw storeRefusal(err);
    }
  });

  registerRoute(app, attrDeltasRoutes.tracingDurationHeatmap, async ({ params, query }) => {
    const project = requireProject(deps.projects, params.projectId);
    const scope = scopeOf(project.id, query);
    const q = compiled('query', query.query ?? '', (scope.lt.getTime() - scope.gte.getTime()) / 60_000);
    try {
      return await deps.deltas.durationHeatmap(scope, q);
    } catch (err) {
      throw storeRefusal(err);
    }
  });
}
