import { alertingRoutes } from './alertingRoutes';
import { authRoutes } from './authRoutes';
import type { AnyRouteContract } from './contract';
import { dashboardsRoutes } from './dashboardsRoutes';
import { ingestRoutes } from './ingestRoutes';
import { metricsRoutes } from './metricsRoutes';
import { projectRoutes } from './projects';
import { systemRoutes } from './systemRoutes';
import { tracingRoutes } from './tracingRoutes';

/** Every route of the server, by id. The server registers exactly these (a test holds it to that). */
export const apiRoutes = {
  ...systemRoutes,
  ...authRoutes,
  ...projectRoutes,
  ...tracingRoutes,
  ...metricsRoutes,
  ...dashboardsRoutes,
  ...alertingRoutes,
  ...ingestRoutes,
};

export const API_ROUTES: readonly AnyRouteContract[] = Object.values(apiRoutes);

/** Paths under this prefix are the JSON API: they need a session unless their contract says otherwise. */
export const API_PREFIX = '/api/';
