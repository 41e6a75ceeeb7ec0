import { randomBytes } from 'node:crypto';
import type { MetadataDb } from '../storage/metadata';
import type { AuthTables } from './auth.migration';
import type { UserRecord } from './users.store';

/**
 * Sessions on the server: the signed cookie names a row here, so sign out (deleting the row) ends
 * the session even for a copy of the cookie, and a restart keeps every session.
 */
export function createSessionsStore(metadata: MetadataDb) {
  const db = metadata.withTables<AuthTables>();
  return {
    async create(userId: number, ttlSec: number, now = new Date()): Promise<string> {
      const id = randomBytes(18).toString('base64url');
      const expires = new Date(now.getTime() + ttlSec * 1000);
      await db
        .insertInto('sessions')
        .values({ id, user_id: userId, created_at: now.toISOString(), expires_at: expires.toISOString() })
        .execute();
      return id;
    },
    /** The user of a live session, or undefined (unknown, expired, or its user removed). */
    userOf: (sessionId: string, userId: number, now = new Date()): Promise<UserRecord | undefined> =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id', 'users.name', 'users.email', 'users.password_hash', 'users.sso_provider'])
        .where('sessions.id', '=', sessionId)
        .where('sessions.user_id', '=', userId)
        .where('sessions.expires_at', '>', now.toISOString())
        .executeTakeFirst(),
    async remove(sessionId: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
    },
    async removeExpired(now = new Date()): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).execute();
    },
  };
}

export type SessionsStore = ReturnType<typeof createSessionsStore>;
