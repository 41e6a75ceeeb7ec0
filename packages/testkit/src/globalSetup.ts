import { prepareServerBundle } from './harness';
import { startTestPostgres, type TestPostgres } from './postgres';

/**
 * Once per test run: the server bundle and its migrated store (harness.ts), so that the test files
 * running side by side do not each make them; a throwaway PostgreSQL server (postgres.ts) for the
 * metadata tests, its URL in LANTERN_TEST_PG_URL for every test worker (they are started after
 * this and inherit it). An externally given LANTERN_TEST_PG_URL is used as is.
 */
let pg: TestPostgres | undefined;

export async function setup(): Promise<void> {
  const [, started] = await Promise.all([
    prepareServerBundle(),
    process.env.LANTERN_TEST_PG_URL ? undefined : startTestPostgres(),
  ]);
  if (!started) return;
  pg = started;
  process.env.LANTERN_TEST_PG_URL = pg.url;
}

export function teardown(): void {
  pg?.stop();
}
