import { z } from 'zod';
import { route } from './contract';
import { IngestStatsResponse } from './ingest';

/** The server about itself: health, ingest counters, and the description of this API. */
export const systemRoutes = {
  health: route({
    id: 'health',
    method: 'GET',
    path: '/api/v1/health',
    response: z.object({ status: z.literal('ok') }),
    summary: 'Liveness: answers while the HTTP server runs',
    auth: 'none',
    tags: ['system'],
  }),
  ingestStats: route({
    id: 'ingestStats',
    method: 'GET',
    path: '/api/v1/internal/stats',
    response: IngestStatsResponse,
    summary: "Ingest counters since the server started, and the queue's fill",
    tags: ['system'],
  }),
  openApi: route({
    id: 'openApi',
    method: 'GET',
    path: '/api/v1/openapi.json',
    response: z.record(z.string(), z.unknown()),
    summary: 'This API described as an OpenAPI 3.1 document (shapes only, never data)',
    auth: 'none',
    tags: ['system'],
  }),
  apiDocs: route({
    id: 'apiDocs',
    method: 'GET',
    path: '/api/docs',
    response: z.string(),
    rawResponse: { media: ['text/html'], description: 'The interactive API reference page' },
    summary: 'The interactive API reference (reads /api/v1/openapi.json)',
    auth: 'none',
    tags: ['system'],
  }),
  apiDocsAsset: route({
    id: 'apiDocsAsset',
    method: 'GET',
    path: '/api/docs/:file',
    response: z.string(),
    rawResponse: {
      media: ['text/javascript', 'text/css'],
      description: "The API reference page's script and style sheet (Swagger UI, served from its npm package)",
    },
    errors: { 404: ['not_found'] },
    summary: "The API reference page's assets",
    auth: 'none',
    tags: ['system'],
  }),
};
