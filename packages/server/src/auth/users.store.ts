import type { UserConfig } from '../config';
import type { MetadataDb } from '../storage/metadata';
import { hashPassword, verifyPassword } from './password';

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  password_hash: string;
}

/** Users live in the metadata DB; the config's users are synced in at start (passwords hashed). */
export function createUsersStore(db: MetadataDb) {
  return {
    byEmail: (email: string): Promise<UserRecord | undefined> =>
      db.selectFrom('users').select(['id', 'name', 'email', 'password_hash']).where('email', '=', email.toLowerCase()).executeTakeFirst(),
    byId: (id: number): Promise<UserRecord | undefined> =>
      db.selectFrom('users').select(['id', 'name', 'email', 'password_hash']).where('id', '=', id).executeTakeFirst(),

    /**
     * Makes the users table match the config: inserts or updates each configured user (a changed
     * password is re-hashed, an unchanged one kept) and removes users no longer configured.
     */
    async syncFromConfig(users: UserConfig[]): Promise<void> {
      await db.deleteFrom('users').where('email', 'not in', users.map((u) => u.email.toLowerCase())).execute();
      for (const u of users) {
        const email = u.email.toLowerCase();
        const existing = await db.selectFrom('users').select(['id', 'password_hash']).where('email', '=', email).executeTakeFirst();
        if (!existing) {
          await db
            .insertInto('users')
            .values({ name: u.name, email, password_hash: await hashPassword(u.password), created_at: new Date().toISOString() })
            .execute();
        } else {
          const same = await verifyPassword(u.password, existing.password_hash);
          await db
            .updateTable('users')
            .set({ name: u.name, ...(same ? {} : { password_hash: await hashPassword(u.password) }) })
            .where('id', '=', existing.id)
            .execute();
        }
      }
    },
  };
}

export type UsersStore = ReturnType<typeof createUsersStore>;
