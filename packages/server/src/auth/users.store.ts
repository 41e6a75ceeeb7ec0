import type { UserConfig } from '../config';
import type { MetadataDb } from '../storage/metadata';
import type { AuthTables } from './auth.migration';
import { hashPassword, verifyPassword } from './password';

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  /** Empty for users created by single sign-on: they cannot sign in with a password. */
  password_hash: string;
  /** Null for users from the config; the OIDC provider id for users created by single sign-on. */
  sso_provider: string | null;
}

const COLUMNS = ['id', 'name', 'email', 'password_hash', 'sso_provider'] as const;

/** Users live in the metadata DB; the config's users are synced in at start (passwords hashed). */
export function createUsersStore(metadata: MetadataDb) {
  const db = metadata.withTables<AuthTables>();
  return {
    byEmail: (email: string): Promise<UserRecord | undefined> =>
      db.selectFrom('users').select(COLUMNS).where('email', '=', email.toLowerCase()).executeTakeFirst(),
    byId: (id: number): Promise<UserRecord | undefined> =>
      db.selectFrom('users').select(COLUMNS).where('id', '=', id).executeTakeFirst(),
    /** A user signing in through OIDC for the first time; no password. */
    async createFromSso(u: { name: string; email: string; provider: string }): Promise<UserRecord> {
      const email = u.email.toLowerCase();
      await db
        .insertInto('users')
        .values({
          name: u.name,
          email,
          password_hash: '',
          sso_provider: u.provider,
          created_at: new Date().toISOString(),
        })
        // Two first sign-ins at once: the second finds the row the first inserted.
        .onConflict((oc) => oc.column('email').doNothing())
        .execute();
      return (await this.byEmail(email))!;
    },
    /** A single sign-on user's name, as the provider now has it. */
    async rename(id: number, name: string): Promise<void> {
      await db.updateTable('users').set({ name }).where('id', '=', id).execute();
    },
    /**
     * Makes the config's users match the config: inserts or updates each configured user (a changed
     * password is re-hashed, an unchanged one kept) and removes config users no longer listed, with
     * their sessions. Users created by single sign-on stay; a configured e-mail that matches one
     * turns it into a config user.
     */
    async syncFromConfig(users: UserConfig[]): Promise<void> {
      const emails = users.map((u) => u.email.toLowerCase());
      await db.deleteFrom('users').where('sso_provider', 'is', null).where('email', 'not in', emails).execute();
      for (const u of users) {
        const email = u.email.toLowerCase();
        const existing = await db
          .selectFrom('users')
          .select(['id', 'password_hash'])
          .where('email', '=', email)
          .executeTakeFirst();
        if (!existing) {
          await db
            .insertInto('users')
            .values({
              name: u.name,
              email,
              password_hash: await hashPassword(u.password),
              sso_provider: null,
              created_at: new Date().toISOString(),
            })
            .execute();
        } else {
          const same = await verifyPassword(u.password, existing.password_hash);
          await db
            .updateTable('users')
            .set({
              name: u.name,
              sso_provider: null,
              ...(same ? {} : { password_hash: await hashPassword(u.password) }),
            })
            .where('id', '=', existing.id)
            .execute();
        }
      }
      await db.deleteFrom('sessions').where('user_id', 'not in', db.selectFrom('users').select('id')).execute();
    },
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
