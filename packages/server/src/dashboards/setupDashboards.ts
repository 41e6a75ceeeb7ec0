import type { FastifyInstance } from 'fastify';
import type { ProjectsService } from '../projects';
import type { MetadataDb } from '../storage/metadata';
import { registerDashboardRoutes } from './dashboards.routes';
import { createDashboardsService, type QueryCheck } from './dashboards.service';
import { createDashboardsStore } from './dashboards.store';
import { createTemplateGallery } from './templateGallery';
import { createTemplateInstaller, loadTemplates } from './templates';

/** Wires the dashboards area: store, service, routes, and template installation (at start and on demand). */
export async function setupDashboards(deps: {
  http: FastifyInstance;
  db: MetadataDb;
  projects: ProjectsService;
  siteUrl: string;
  presentMetrics: (projectId: number, names: string[]) => Promise<string[]>;
  /** The metrics planner: a YAML save is refused with the queries that would not run. */
  checkQuery?: QueryCheck;
  log: { error(obj: object, msg: string): void };
}) {
  const store = createDashboardsStore(deps.db);
  const service = createDashboardsService(store, { checkQuery: deps.checkQuery });
  const specs = loadTemplates();
  const gallery = createTemplateGallery(specs, service);
  await registerDashboardRoutes(deps.http, {
    projects: deps.projects,
    service,
    store,
    gallery,
    siteUrl: deps.siteUrl,
  });
  const templates = createTemplateInstaller({
    templates: specs,
    store,
    service,
    presentMetrics: deps.presentMetrics,
    log: deps.log,
  });
  for (const p of deps.projects.list()) {
    templates
      .run(p.id)
      .catch((err: unknown) => deps.log.error({ err, projectId: p.id }, 'dashboard template sync failed'));
  }
  return templates;
}
