import { projectRoutes, toText } from '@lantern/shared';
import type { FastifyInstance } from 'fastify';
import type { ProjectConfig } from '../config';
import { AppError } from '../http/appError';
import { registerRoute } from '../http/routes';
import type { ProjectsService } from './projects.service';

/** The project a request names in its path, if the signed-in user may see it; 404 otherwise. */
export function requireProject(projects: ProjectsService, raw: unknown): ProjectConfig {
  const text = toText(raw);
  const id = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  const project = Number.isFinite(id) ? projects.get(id) : undefined;
  if (!project) throw new AppError('not_found', 'project_not_found', `Project ${JSON.stringify(text)} not found.`);
  return project;
}

export function registerProjectRoutes(app: FastifyInstance, projects: ProjectsService): void {
  registerRoute(app, projectRoutes.getProject, async ({ params }) =>
    projects.describe(requireProject(projects, params.projectId)),
  );
}
