import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = import.meta.dirname;
/** Seconds each file took in the recorded run (`"<project> <path>"`: scripts/testTimes.mjs writes it). */
const BASELINE = (
  JSON.parse(readFileSync(`${ROOT}/scripts/testTimes.baseline.json`, 'utf8')) as { files: Record<string, number> }
).files;
/** A file the baseline does not know yet (a new one): placed among the middling ones. */
const UNKNOWN_FILE_SECONDS = 30;

/**
 * Longest files first across the projects of a group, by the baseline's times. Vitest's own order
 * runs a group's projects one after the other (by name) and, on a clean clone without its cache,
 * a project's files in no order of length: the suite then ended on a long file running alone
 * while the other worker was idle (integration-pg's badInput, 82 s). Longest-first keeps both
 * workers busy to the end.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (f: TestSpecification) =>
      BASELINE[`${f.project.name} ${relative(ROOT, f.moduleId)}`] ?? UNKNOWN_FILE_SECONDS;
    return [...files].sort(
      (a, b) => a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder || seconds(b) - seconds(a),
    );
  }
}

// Tests of the metadata store that run a second time with PostgreSQL instead of SQLite (the
// `integration-pg` project): users and sessions, saved views, dashboards, monitors, alerts,
// channels and the notification outbox. Tests that open both stores themselves (users.store, lease,
// alertList) are in `integration` only.
const METADATA_TESTS = [
  'packages/server/src/auth/auth.int.test.ts',
  'packages/server/src/tracing/query/tracingApi.int.test.ts',
  'packages/server/src/tracing/query/attrRollup.int.test.ts',
  'packages/server/src/dashboards/dashboards.int.test.ts',
  'packages/server/src/alerting/alerting.int.test.ts',
  'packages/server/src/alerting/metricMonitors.int.test.ts',
  'packages/server/src/alerting/channels.int.test.ts',
  'packages/server/src/alerting/defaultMonitor.int.test.ts',
  // NUL in text and concurrent saves failed on PostgreSQL only.
  'packages/server/src/http/badInput.int.test.ts',
];

// Tests of telemetry that run a second time with the remote ClickHouse store (`storage.ch.url`)
// instead of embedded chDB (the `integration-ch` project): each server gets the ClickHouse test
// stand-in (packages/testkit/src/clickhouse/server.ts) in front of it. The store contract tests open both themselves.
const TELEMETRY_TESTS = [
  'packages/server/src/ingest/traces.int.test.ts',
  'packages/server/src/ingest/logs.int.test.ts',
  'packages/server/src/ingest/zipkinVector.int.test.ts',
  'packages/server/src/ingest/durability.int.test.ts',
  'packages/server/src/metrics/metrics.int.test.ts',
  'packages/server/src/tracing/query/tracingQuery.int.test.ts',
  'packages/server/src/tracing/query/tracingApi.int.test.ts',
  'packages/server/src/tracing/query/attrRollup.int.test.ts',
  'packages/server/src/tracing/attrDeltas/heatmapRollup.int.test.ts',
  'packages/server/src/tracing/serviceGraph/serviceGraph.int.test.ts',
  // PromQL against a real Prometheus: the source's SQL (GLOBAL IN, the hourly rollup by views) on a server.
  'packages/server/src/metrics/promql/promqlCompliance.int.test.ts',
];

// Unit tests first (`groupOrder` 0); then the integration, browser and re-run projects in one group,
// two files at a time from any of them (`maxWorkers: 2`): each starts real servers (each with its
// own embedded chDB, ~1 GB), so two at once is what this 2-core machine takes. Vitest gives a group
// one worker count, and a project with `fileParallelism: false` one worker: the earlier groups of
// such projects, and Vitest's default of one worker less than the cores, ran every file of the
// suite one after the other. One PostgreSQL server serves the whole run
// (packages/testkit/src/globalSetup.ts). Test fixtures live in @lantern/testkit (packages/testkit).
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    globalSetup: ['packages/testkit/src/globalSetup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          // One module cache per worker across the unit files (they start no servers and keep no
          // state between files): 152 files in 14 s of wall and 21 CPU-s, against 59 s and 107 CPU-s
          // when each file imported @lantern/shared, zod and the server's modules afresh (44 s of imports).
          isolate: false,
          include: ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          // One module cache per worker here too (and in the re-run projects): the server's ~430 modules
          // are evaluated once per worker instead of once per file (~2.2 CPU-s a file). Each file closes
          // its servers in afterAll, and a chDB session opens on another data directory once the
          // previous one is closed: all 61 files, 717 tests passed this way together.
          isolate: false,
          include: ['packages/*/src/**/*.int.test.ts', 'packages/*/test/**/*.int.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        test: {
          name: 'integration-pg',
          sequence: { groupOrder: 1 },
          isolate: false,
          include: METADATA_TESTS,
          env: { LANTERN_TEST_METADATA: 'postgres' },
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        test: {
          name: 'integration-ch',
          sequence: { groupOrder: 1 },
          isolate: false,
          include: TELEMETRY_TESTS,
          env: { LANTERN_TEST_TELEMETRY: 'clickhouse' },
          testTimeout: 60_000,
          hookTimeout: 90_000,
        },
      },
      {
        test: {
          name: 'e2e',
          sequence: { groupOrder: 1 },
          // One module cache per worker: the files' servers are child processes (no chDB in the worker),
          // and the worker's files share one Chromium (testkit pages/browser.ts), each with its own contexts.
          isolate: false,
          include: ['e2e/**/*.e2e.test.ts'],
          // A page's next state can take seconds on a loaded machine (the 1 s default failed
          // monitors' and traceTree's checks at load 17-22 and passed on reruns).
          expect: { poll: { timeout: 10_000 } },
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
