import { buildDsn, type Project, type ProjectResponse } from '@lantern/shared';
import { parseListenAddr, type Config, type ProjectConfig } from '../config';

/**
 * Projects come from the config file (they are read-only in the UI, spec platform §2.4). This
 * service answers lookups by id and by ingest token, and builds the DSNs users copy.
 */
export interface ProjectsService {
  list(): ProjectConfig[];
  get(id: number): ProjectConfig | undefined;
  byToken(token: string): ProjectConfig | undefined;
  describe(project: ProjectConfig): ProjectResponse;
}

export function createProjectsService(config: Config): ProjectsService {
  const byId = new Map(config.projects.map((p) => [p.id, p]));
  const byToken = new Map(config.projects.flatMap((p) => p.tokens.map((t) => [t, p] as const)));
  const site = new URL(config.site.url);
  const scheme = site.protocol.replace(':', '');
  const httpPort = parseListenAddr(config.listen.http.addr).port;
  const grpcPort = parseListenAddr(config.listen.grpc.addr).port;
  const host = site.hostname;
  // The site URL may sit behind a proxy on another port; OTLP/HTTP goes where the site is.
  const sitePort = site.port ? Number(site.port) : scheme === 'https' ? 443 : httpPort;

  return {
    list: () => config.projects,
    get: (id) => byId.get(id),
    byToken: (token) => byToken.get(token),
    describe(p) {
      const project: Project = {
        id: p.id,
        name: p.name,
        pinnedAttrs: p.pinned_attrs,
        groupByEnv: p.group_by_env,
        groupFuncsByService: p.group_funcs_by_service,
      };
      const token = p.tokens[0];
      return {
        project,
        http: {
          endpoint: `${scheme}://${host}:${sitePort}`,
          dsn: buildDsn({ scheme, token, host, port: sitePort, projectId: p.id }),
        },
        grpc: {
          endpoint: `${scheme}://${host}:${grpcPort}`,
          dsn: buildDsn({ scheme, token, host, port: grpcPort, projectId: p.id }),
        },
      };
    },
  };
}
