import type { FastifyError, FastifyInstance } from 'fastify';
import { isMetadataUnavailable } from '../storage/metadata';
import { StoreUnavailableError } from '../storage/telemetry';
import { AppError } from './appError';

/**
 * Renders every error as `{code, message}`. AppErrors carry their own status; Fastify's own
 * errors (body too large, bad JSON, unsupported media type) keep their 4xx status, with Lantern's
 * codes; anything else
 * is a 500 with a generic message, and is logged; a metadata database that cannot be reached is a
 * 503 `metadata_unavailable`, an unreachable telemetry store a 503 `telemetry_unavailable`, both
 * with Retry-After.
 */
/** Lantern's codes for Fastify's own 4xx errors (reference: a JSON syntax error is `json_syntax`). */
const FASTIFY_CODES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'json_syntax',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'json_syntax',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
  FST_ERR_CTP_INVALID_TYPE: 'unsupported_media_type',
};
const STATUS_CODES: Record<number, string> = {
  404: 'not_found',
  405: 'method_not_allowed',
  415: 'unsupported_media_type',
};

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError | Error, req, reply) => {
    if (err instanceof AppError) {
      if (err.retryAfterSec) reply.header('Retry-After', String(err.retryAfterSec));
      return reply.status(err.status).send({ code: err.code, message: err.message, ...err.details });
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      const code =
        status === 413
          ? 'request_too_large'
          : (FASTIFY_CODES[(err as FastifyError).code] ?? STATUS_CODES[status] ?? 'bad_request');
      return reply.status(status).send({ code, message: err.message });
    }
    if (err instanceof StoreUnavailableError) {
      req.log.warn({ err: err.message }, 'telemetry store unavailable');
      return reply.status(503).header('Retry-After', '5').send({
        code: 'telemetry_unavailable',
        message: 'The telemetry store is unavailable; try again in a few seconds.',
      });
    }
    if (isMetadataUnavailable(err)) {
      req.log.warn({ err: err.message }, 'metadata database unavailable');
      return reply.status(503).header('Retry-After', '5').send({
        code: 'metadata_unavailable',
        message: 'The metadata database is unavailable; try again in a few seconds.',
      });
    }
    req.log.error({ err }, 'request failed');
    return reply.status(500).send({ code: 'internal', message: 'Internal server error.' });
  });
}
