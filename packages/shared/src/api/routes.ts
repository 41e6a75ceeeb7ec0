import { alertingRoutes } from './alertingRoutes';
import { attrDeltasRoutes } from './attrDeltasRoutes';
import { authRoutes } from './authRoutes';
import type { AnyRouteContract } from './contract';
import { dashboardsRoutes } from './dashboardsRoutes';
import { ingestRoutes } from './ingestRoutes';
import { metricsRoutes } from './metricsRoutes';
import { projectRoutes } from './projects';
import { prometheusSessionRoutes, prometheusTokenRoutes } from './prometheusRoutes';
import { systemRoutes } from './systemRoutes';
import { tailRoutes } from './tailRoutes';
import { tracingRoutes } from './tracingRoutes';

/** Every route of the server, by id. The server registers exactly these (a test holds it to that). */
export const apiRoutes = {
  ...systemRoutes,
  ...authRoutes,
  ...projectRoutes,
  ...tracingRoutes,
  ...attrDeltasRoutes,
  ...tailRoutes,
  ...metricsRoutes,
  ...dashboardsRoutes,
  ...alertingRoutes,
  ...ingestRoutes,
  ...prometheusTokenRoutes,
  ...prometheusSessionRoutes,
};

export const API_ROUTES: readonly AnyRouteContract[] = Object.values(apiRoutes);

/** Paths under this prefix are the API (the web app's history routes are everything else). */
export const API_PREFIX = '/api/';
/** OTLP/HTTP's own paths (`/v1/traces`, ...). */
export const OTLP_PREFIX = '/v1/';
/** A path the server answers as an API (JSON 404 when unknown), not as a page of the web app. */
export const isApiPath = (path: string): boolean => path.startsWith(API_PREFIX) || path.startsWith(OTLP_PREFIX);
/** An unknown path under this prefix answers 401 without a session (a known one: as its contract says). */
export const SESSION_API_PREFIX = '/api/v1/';
