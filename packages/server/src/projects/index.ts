// Projects: read-only, from config. Resolves ids and ingest tokens, builds DSNs. No storage of its own.
export { createProjectsService, type ProjectsService } from './projects.service';
export { registerProjectRoutes, requireProject } from './projects.routes';
