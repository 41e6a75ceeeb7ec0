import { createHash } from 'node:crypto';
import type { CurrentUserResponse, User } from '@lantern/shared';
import type { Config } from '../config';
import { AppError } from '../http/appError';
import type { ProjectsService } from '../projects';
import { verifyPassword } from './password';
import type { SessionSigner } from './session';
import type { UserRecord, UsersStore } from './users.store';

export interface AuthService {
  login(email: string, password: string): Promise<{ token: string; current: CurrentUserResponse }>;
  /** The signed-in user for a session token, or null. */
  userFromSession(token: string | undefined): Promise<UserRecord | null>;
  current(user: UserRecord): CurrentUserResponse;
  /** The default login, shown on the Login page while it is still the shipped default. */
  loginHint(): { email: string; password: string } | null;
}

export const DEFAULT_USER = { email: 'admin@lantern.local', password: 'lantern' };

export function createAuthService(deps: {
  config: Config;
  users: UsersStore;
  sessions: SessionSigner;
  projects: ProjectsService;
}): AuthService {
  const toUser = (u: UserRecord): User => ({
    id: u.id,
    name: u.name,
    email: u.email,
    avatar: `https://www.gravatar.com/avatar/${createHash('md5').update(u.email.trim().toLowerCase()).digest('hex')}?d=identicon`,
  });
  const current = (u: UserRecord): CurrentUserResponse => ({
    user: toUser(u),
    // Only signed-in vs signed-out is distinguished (spec platform §6): every user sees every project.
    projects: deps.projects.list().map((p) => ({ id: p.id, name: p.name })),
  });

  return {
    async login(email, password) {
      const user = await deps.users.byEmail(email.trim());
      // The same message for an unknown e-mail and a wrong password: no account probing.
      if (!user || !(await verifyPassword(password, user.password_hash))) {
        throw new AppError('invalid_input', 'invalid_credentials', 'The e-mail or password is wrong.');
      }
      return { token: await deps.sessions.sign(user.id), current: current(user) };
    },
    async userFromSession(token) {
      if (!token) return null;
      const id = await deps.sessions.verify(token);
      if (id === null) return null;
      return (await deps.users.byId(id)) ?? null;
    },
    current,
    loginHint() {
      const isDefault = deps.config.users.some(
        (u) => u.email.toLowerCase() === DEFAULT_USER.email && u.password === DEFAULT_USER.password,
      );
      return isDefault ? { ...DEFAULT_USER } : null;
    },
  };
}
