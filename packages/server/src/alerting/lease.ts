import type { AlertingDb } from './db';

/**
 * The evaluator lease: exactly one Lantern process per deployment evaluates monitors and delivers
 * notifications. A row in the metadata store (SQLite or PostgreSQL) names the holder and when its
 * lease expires; the holder renews it every tick, another process takes over only after expiry.
 */
export const LEASE_NAME = 'alerting-evaluator';

export async function acquireLease(db: AlertingDb, holder: string, now: Date, ttlMs: number): Promise<boolean> {
  const expires = new Date(now.getTime() + ttlMs).toISOString();
  // Two single statements, each atomic on its own: no multi-statement transaction that could
  // hold a lock while another process waits. The UPDATE decides: it only matches for the holder
  // itself or once the lease has run out.
  try {
    await db
      .insertInto('alerting_leases')
      .values({ name: LEASE_NAME, holder: '', expires_at: new Date(0).toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const r = await db
      .updateTable('alerting_leases')
      .set({ holder, expires_at: expires })
      .where('name', '=', LEASE_NAME)
      .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<', now.toISOString())]))
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  } catch (err) {
    // Another process is writing the lease right now: it, not us, is the evaluator this round.
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw err;
  }
}

export async function releaseLease(db: AlertingDb, holder: string): Promise<void> {
  await db.deleteFrom('alerting_leases').where('name', '=', LEASE_NAME).where('holder', '=', holder).execute();
}
