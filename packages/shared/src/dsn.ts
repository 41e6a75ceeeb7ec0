/**
 * DSN: `http://TOKEN@HOST:PORT/PROJECT_ID`, optionally with `?grpc=PORT` (architecture §4).
 * Only the token identifies the project at ingest; the id is validated and shown, never trusted.
 */
export interface Dsn {
  scheme: string;
  token: string;
  host: string;
  port: number | null;
  projectId: number | null;
  grpcPort: number | null;
}

export class DsnError extends Error {}

export function parseDsn(text: string): Dsn {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new DsnError(`DSN ${JSON.stringify(text)} is not a URL`);
  }
  const scheme = url.protocol.replace(/:$/, '');
  if (scheme !== 'http' && scheme !== 'https') throw new DsnError('DSN scheme must be http or https');
  if (!url.hostname) throw new DsnError('DSN host is empty');
  const token = decodeURIComponent(url.username);
  if (!token) throw new DsnError('DSN token (the user part before @) is empty');
  let projectId: number | null = null;
  const path = url.pathname.replace(/^\//, '');
  if (path !== '') {
    if (!/^\d{1,10}$/.test(path) || Number(path) > 0xffffffff) {
      throw new DsnError(`DSN project id ${JSON.stringify(path)} must be an unsigned 32-bit number`);
    }
    projectId = Number(path);
  }
  const grpc = url.searchParams.get('grpc');
  let grpcPort: number | null = null;
  if (grpc !== null) {
    if (!/^\d{1,5}$/.test(grpc) || Number(grpc) > 65535) throw new DsnError('DSN grpc port is not a port number');
    grpcPort = Number(grpc);
  }
  return { scheme, token, host: url.hostname, port: url.port ? Number(url.port) : null, projectId, grpcPort };
}

export function buildDsn(opts: {
  scheme: string;
  token: string;
  host: string;
  port: number;
  projectId: number;
}): string {
  return `${opts.scheme}://${encodeURIComponent(opts.token)}@${opts.host}:${opts.port}/${opts.projectId}`;
}
