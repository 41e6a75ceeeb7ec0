import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config';
import { composeLantern } from './app/compose';
import { freshSchema } from './storage/telemetry';
import { startupBanner, startupErrorMessage } from './app/startupBanner';
import { routeGrpcLogs } from './ingest';

/**
 * `lantern [--config lantern.yml]`: starts the HTTP (UI, API, OTLP/HTTP) and gRPC (OTLP) listeners.
 * `lantern schema print [--cluster NAME]`: prints the telemetry DDL a fresh database gets (its
 * cluster form with a cluster name, default `storage.ch.cluster`), to review before a first start.
 * `lantern migrate-storage [--to-db URL] [--to-ch URL] [--to-cluster NAME] [--replace]`: copies the
 * embedded storage under data_dir (Lantern stopped) into PostgreSQL and ClickHouse (default: the
 * config's storage.db.url and storage.ch.url); docs/scale-out.md.
 * The config path comes from --config, then LANTERN_CONFIG, then ./lantern.yml when it exists.
 */
async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: {
      config: { type: 'string', short: 'c' },
      cluster: { type: 'string' },
      'to-db': { type: 'string' },
      'to-ch': { type: 'string' },
      'to-cluster': { type: 'string' },
      replace: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  const command = positionals.join(' ');
  if (command !== '' && command !== 'schema print' && command !== 'migrate-storage') {
    console.error(
      `unknown command "${command}": use \`lantern [--config FILE]\`, \`lantern schema print [--cluster NAME]\` or \`lantern migrate-storage [--to-db URL] [--to-ch URL] [--to-cluster NAME] [--replace]\``,
    );
    process.exit(2);
  }
  const file = values.config ?? process.env.LANTERN_CONFIG ?? (existsSync('lantern.yml') ? 'lantern.yml' : undefined);
  let config;
  try {
    config = loadConfig({ file });
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  if (command === 'schema print') {
    const ttl = { spansDays: config.retention.spans_days, metricsDays: config.retention.metrics_days };
    try {
      console.log(freshSchema(ttl, values.cluster ?? config.storage.ch.cluster).join(';\n\n') + ';');
    } catch (err) {
      console.error((err as Error).message);
      process.exit(2);
    }
    return;
  }
  if (command === 'migrate-storage') {
    // Loaded for this command only: with it the PostgreSQL and ClickHouse clients a server does not use.
    const { formatReport, migrateStorage, MigrateStorageError } = await import('./app/migrateStorage');
    try {
      const report = await migrateStorage({
        config,
        toDb: values['to-db'] ?? config.storage.db.url,
        toCh: values['to-ch'] ?? config.storage.ch.url,
        toCluster: values['to-cluster'] ?? config.storage.ch.cluster,
        replace: values.replace ?? false,
        progress: (line) => console.log(line),
      });
      console.log(`${formatReport(report)}\ncopied; every count matches`);
    } catch (err) {
      // A refusal says what to do; anything else failed on the way (a target gone mid-copy).
      console.error(
        err instanceof MigrateStorageError
          ? `migrate-storage: ${err.message}`
          : `migrate-storage failed: ${String(err)}`,
      );
      process.exit(1);
    }
    return;
  }
  // Every failed start is one line and a prompt exit 1 (startupErrorMessage); the stack only at
  // log_level debug. composeLantern closes what it opened before it throws.
  const failed = (err: unknown) => {
    console.error(startupErrorMessage(err, config));
    if (config.log_level === 'debug' || config.log_level === 'trace') console.error(err);
  };
  let lantern;
  try {
    // A web bundle built elsewhere (tests and parallel builds point here); packages/web/dist otherwise.
    lantern = await composeLantern(config, {
      webDist: process.env.LANTERN_WEB_DIST || undefined,
      // Tests: every JSON answer is parsed by its route contract (a broken one is a 500).
      checkAnswers: process.env.LANTERN_CHECK_ANSWERS === '1',
    });
  } catch (err) {
    failed(err);
    process.exit(1);
  }
  // grpc-js's own lines go into the log; its line for a failed bind would stand above ours.
  routeGrpcLogs(lantern.log);
  let ports;
  try {
    ports = await lantern.listen();
  } catch (err) {
    failed(err);
    // Storage and worker threads are open: a bare exit could hang on them (or die by a signal).
    // Closed quietly: workers still warming up log their termination, which says nothing more.
    // Bounded: the exit must be prompt even if a part does not close (a whole-suite run once saw a
    // failed start still running after 60 s). Only the HTTP listener was up, for a moment, before.
    lantern.log.level = 'silent';
    await Promise.race([lantern.close().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000).unref())]);
    process.exit(1);
  }
  const { httpPort, grpcPort } = ports;
  lantern.log.info({ httpPort, grpcPort, dataDir: config.data_dir, config: file ?? '(defaults)' }, 'Lantern is up');
  // For the person who started it (where to sign in, the DSNs) and for the test harness, which
  // waits for its first line.
  console.log(startupBanner(config, { httpPort, grpcPort }));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    lantern.log.info({ signal }, 'shutting down: committing queued rows');
    lantern.close().then(
      () => process.exit(0),
      (err) => {
        lantern.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(`Lantern failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
