import { resolve, sep } from 'node:path';
import { DEFAULT_USER } from '../auth';
import type { Config } from '../config';
import { createProjectsService } from '../projects';

/** Projects listed by name and DSN at start; a config with more names the rest in one line. */
const MAX_LISTED_PROJECTS = 10;

/**
 * What `lantern` prints once it listens, for the person who just ran `npm start`: where to sign
 * in (with the default login while it is still the shipped one, as the Login page says), each
 * project's DSNs (the ones Project settings and Getting started show: the same projects service
 * builds them) and where Getting started is. The first line is the one the test harness waits for.
 */
export function startupBanner(config: Config, ports: { httpPort: number; grpcPort: number }): string {
  const site = config.site.url.replace(/\/$/, '');
  const lines = [`Lantern is serving ${site} (HTTP :${ports.httpPort}, OTLP/gRPC :${ports.grpcPort})`];
  const defaultLogin = config.users.some(
    (u) => u.email.toLowerCase() === DEFAULT_USER.email && u.password === DEFAULT_USER.password,
  );
  lines.push(
    defaultLogin
      ? `Sign in at ${site} as ${DEFAULT_USER.email} with password ${DEFAULT_USER.password} (the default login: set users in the config to change it)`
      : `Sign in at ${site}`,
  );
  const projects = createProjectsService(config);
  const listed = config.projects.slice(0, MAX_LISTED_PROJECTS);
  for (const p of listed) {
    const { http, grpc } = projects.describe(p);
    lines.push(
      `Project ${p.id} ${JSON.stringify(p.name)}: send telemetry with its DSN in the lantern-dsn header`,
      `  OTLP/HTTP  ${http.endpoint}  lantern-dsn=${http.dsn}`,
      `  OTLP/gRPC  ${grpc.endpoint}  lantern-dsn=${grpc.dsn}`,
    );
  }
  const more = config.projects.length - listed.length;
  if (more > 0) lines.push(`(${more} more project${more === 1 ? '' : 's'}: see Project settings in the web app)`);
  const first = config.projects[0];
  if (first) lines.push(`Getting started (SDK and Collector settings, demo data): ${site}/help/${first.id}`);
  return lines.join('\n');
}

/**
 * A listener that cannot bind, said in one line a newcomer can act on (the usual case: a second
 * `npm start`, or another OpenTelemetry backend on 14318/14317), instead of a stack trace; undefined
 * for any other error. The HTTP listener's error carries its code; gRPC's only names it in the text.
 */
export function listenErrorMessage(err: unknown, config: Config): string | undefined {
  const e = err as { code?: unknown; message?: unknown };
  const text = `${typeof e.code === 'string' ? e.code : ''} ${typeof e.message === 'string' ? e.message : ''}`;
  const reason = /EADDRINUSE/.test(text)
    ? 'is already in use (another Lantern, or another program)'
    : /EACCES/.test(text)
      ? 'may not be listened on by this user (ports below 1024 need privileges)'
      : /EADDRNOTAVAIL/.test(text)
        ? 'is not an address of this machine'
        : undefined;
  if (!reason) return undefined;
  const grpc = /^No address added/.test(typeof e.message === 'string' ? e.message : '');
  const [addr, key, env] = grpc
    ? [config.listen.grpc.addr, 'listen.grpc.addr', 'LANTERN_GRPC_ADDR']
    : [config.listen.http.addr, 'listen.http.addr', 'LANTERN_HTTP_ADDR'];
  return `Lantern failed to start: ${addr} (${key}) ${reason}; stop what holds it or set ${env} (or ${key} in the config) to another address, e.g. ${env}=127.0.0.1:<free port>`;
}

/**
 * Any failed start in one line (the stack only at log_level debug): a listener that cannot bind
 * (listenErrorMessage), a data directory that cannot be used (named with its settings), else the
 * error's own message.
 */
export function startupErrorMessage(err: unknown, config: Config): string {
  const listen = listenErrorMessage(err, config);
  if (listen) return listen;
  const e = (typeof err === 'object' && err ? err : {}) as { code?: unknown; path?: unknown; message?: unknown };
  const text = (typeof e.message === 'string' ? e.message : String(err)).replace(/\s*\n\s*/g, ' ').trim();
  const message = text.length > 1000 ? `${text.slice(0, 1000)}...` : text;
  const dataDir = resolve(config.data_dir);
  const inDataDir =
    (typeof e.path === 'string' && (resolve(e.path) + sep).startsWith(dataDir + sep)) ||
    (typeof e.path === 'string' && (dataDir + sep).startsWith(resolve(e.path) + sep)) ||
    (typeof e.code === 'string' && /^SQLITE_(CANTOPEN|READONLY|IOERR|FULL|PERM)/.test(e.code));
  return inDataDir
    ? `Lantern failed to start: the data directory ${dataDir} (data_dir, LANTERN_DATA_DIR) cannot be used: ${message}`
    : `Lantern failed to start: ${message || 'unknown error'}`;
}
