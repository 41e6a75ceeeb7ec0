import { startTestPostgres, type TestPostgres } from './postgres';

/**
 * Once per test run: a throwaway PostgreSQL server (postgres.ts) for the metadata tests, its URL
 * in LANTERN_TEST_PG_URL for every test worker (they are started after this and inherit it). An
 * externally given LANTERN_TEST_PG_URL is used as is.
 */
let pg: TestPostgres | undefined;

export async function setup(): Promise<void> {
  if (process.env.LANTERN_TEST_PG_URL) return;
  pg = await startTestPostgres();
  process.env.LANTERN_TEST_PG_URL = pg.url;
}

export function teardown(): void {
  pg?.stop();
}
