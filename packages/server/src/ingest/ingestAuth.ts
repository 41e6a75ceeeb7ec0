import { DsnError, parseDsn } from '@lantern/shared';
import type { ProjectConfig } from '../config';
import { AppError } from '../http/appError';
import type { ProjectsService } from '../projects';

/**
 * Finds the project an ingest request writes to, from the DSN token (architecture §4): the
 * `lantern-dsn` or `uptrace-dsn` header, else `Authorization: Bearer`, else the password of
 * `Authorization: Basic` (any user name: what Prometheus's `basic_auth` sends), else a `?dsn=` query
 * parameter (what Zipkin and Vector senders can set). Each may hold a DSN or a bare token. Only
 * the token decides; a project id in the DSN must agree with it when present.
 */
export function projectFromHeaders(
  projects: ProjectsService,
  get: (name: string) => string | undefined,
  queryDsn?: string,
): ProjectConfig {
  const auth = get('authorization');
  const bearer = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] : undefined;
  const value = (get('lantern-dsn') ?? get('uptrace-dsn') ?? bearer ?? basicPassword(auth) ?? queryDsn)?.trim();
  let token: string | undefined;
  let claimedId: number | null = null;
  if (value && value.includes('://')) {
    try {
      const dsn = parseDsn(value);
      token = dsn.token;
      claimedId = dsn.projectId;
    } catch (err) {
      if (err instanceof DsnError) throw new AppError('invalid_input', 'invalid_dsn', err.message);
      throw err;
    }
  } else {
    token = value;
  }
  if (!token) {
    throw new AppError(
      'unauthenticated',
      'dsn_required',
      'a project DSN is required: send it in the lantern-dsn header (or uptrace-dsn, or Authorization: Bearer <token>)',
    );
  }
  const project = projects.byToken(token);
  if (!project) throw new AppError('unauthenticated', 'unknown_token', 'no project has this DSN token');
  if (claimedId !== null && claimedId !== project.id) {
    throw new AppError(
      'unauthenticated',
      'dsn_project_mismatch',
      `the DSN token does not belong to project ${claimedId}`,
    );
  }
  return project;
}

/** The password of a Basic authorization (or the user name when the password is empty). */
function basicPassword(auth: string | undefined): string | undefined {
  const b64 = auth ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(auth)?.[1] : undefined;
  if (!b64) return undefined;
  const text = Buffer.from(b64, 'base64').toString('utf8');
  const i = text.indexOf(':');
  const pass = i >= 0 ? text.slice(i + 1) : '';
  return pass || (i >= 0 ? text.slice(0, i) : text) || undefined;
}
