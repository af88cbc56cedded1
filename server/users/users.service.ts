import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/activity.repo.js';
import { hashPassword } from '../auth/passwords.js';
import type { SqliteSessionStore } from '../auth/session-store.js';
import type { AuthUser } from '../auth/middleware.js';
import type { DB, UserUpdate } from '../db/schema.js';
import { HttpError, notFound } from '../http/errors.js';
import { UsersRepo, userRowToUser, type ApiUser } from './users.repo.js';
import type { UserInput } from './users.validation.js';

const LAST_ADMIN = 'The last active admin cannot be deleted, deactivated or demoted.';

export class UsersService {
  readonly repo: UsersRepo;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly sessions: SqliteSessionStore,
  ) {
    this.repo = new UsersRepo(db);
  }

  async list(): Promise<ApiUser[]> {
    return (await this.repo.list()).map(userRowToUser);
  }

  async create(input: UserInput, actor: AuthUser | null): Promise<ApiUser> {
    if (await this.repo.byUsername(input.username!)) {
      throw new HttpError(409, `The username "${input.username}" is already taken.`);
    }
    const row = await this.repo.insert({
      username: input.username!,
      email: input.email!,
      full_name: input.full_name!,
      role: input.role ?? 'family',
      is_active: input.is_active === false ? 0 : 1,
      password_hash: await hashPassword(input.password!),
      created_at: new Date().toISOString(),
      last_login: null,
    });
    await recordActivity(this.db, 'user_created', `User ${row.username} created (${row.role})`, actor?.username ?? null);
    return userRowToUser(row);
  }

  async update(id: number, input: UserInput, actor: AuthUser): Promise<ApiUser> {
    const current = await this.repo.byId(id);
    if (!current) throw notFound('User not found.');
    if (input.username !== undefined && input.username.toLowerCase() !== current.username.toLowerCase()) {
      if (await this.repo.byUsername(input.username)) {
        throw new HttpError(409, `The username "${input.username}" is already taken.`);
      }
    }
    const losesAdmin =
      current.role === 'admin' &&
      current.is_active === 1 &&
      ((input.role !== undefined && input.role !== 'admin') || input.is_active === false);
    if (losesAdmin && (await this.repo.countActiveAdmins()) <= 1) throw new HttpError(409, LAST_ADMIN);

    const patch: UserUpdate = {};
    if (input.username !== undefined) patch.username = input.username;
    if (input.email !== undefined) patch.email = input.email;
    if (input.full_name !== undefined) patch.full_name = input.full_name;
    if (input.role !== undefined) patch.role = input.role;
    if (input.is_active !== undefined) patch.is_active = input.is_active ? 1 : 0;
    if (input.password !== undefined) patch.password_hash = await hashPassword(input.password);
    const row = Object.keys(patch).length > 0 ? await this.repo.update(id, patch) : current;
    if (!row) throw notFound('User not found.');
    if (input.is_active === false && current.is_active === 1) this.sessions.destroyUserSessions(id);
    if (input.password !== undefined && id !== actor.id) this.sessions.destroyUserSessions(id);
    return userRowToUser(row);
  }

  async toggleActive(id: number, actor: AuthUser): Promise<ApiUser> {
    const current = await this.repo.byId(id);
    if (!current) throw notFound('User not found.');
    if (current.is_active === 1 && id === actor.id) throw new HttpError(409, 'You cannot deactivate your own account.');
    return this.update(id, { is_active: current.is_active !== 1 }, actor);
  }

  async delete(id: number, actor: AuthUser): Promise<void> {
    const current = await this.repo.byId(id);
    if (!current) throw notFound('User not found.');
    if (id === actor.id) throw new HttpError(409, 'You cannot delete your own account.');
    if (current.role === 'admin' && current.is_active === 1 && (await this.repo.countActiveAdmins()) <= 1) {
      throw new HttpError(409, LAST_ADMIN);
    }
    await this.repo.delete(id);
    this.sessions.destroyUserSessions(id);
  }
}
