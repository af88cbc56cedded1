import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/activity.repo.js';
import { burnVerify, hashPassword, verifyPassword } from '../auth/passwords.js';
import { permissionsFor, type AuthUser } from '../auth/permissions.js';
import type { SqliteSessionStore } from '../auth/session-store.js';
import type { DB, UserRow, UserUpdate } from '../db/schema.js';
import { msg } from '../../common/languages.js';
import { conflict, notFound } from '../errors.js';
import { UsersRepo, userRowToUser, type ApiUser } from './users.repo.js';
import type { UserInput } from './users.validation.js';

const LAST_ADMIN = 'errors.users.last_admin';

const toAuthUser = (row: UserRow): AuthUser => ({
  id: row.id,
  username: row.username,
  full_name: row.full_name,
  role: row.role,
  permissions: permissionsFor(row.role),
});

const taken = (username: string) => conflict('errors.users.username_taken', { username });

/** The accounts of the admin area: who may sign in, with which role (SPEC §5, §6). */
export class UsersService {
  private readonly repo: UsersRepo;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly sessions: SqliteSessionStore,
  ) {
    this.repo = new UsersRepo(db);
  }

  async list(): Promise<ApiUser[]> {
    return (await this.repo.list()).map(userRowToUser);
  }

  stats(): Promise<{ total_users: number; active_users: number; admin_users: number; family_users: number }> {
    return this.repo.stats();
  }

  /** The user a session belongs to, or null when it is gone or deactivated (then it counts as signed out). */
  async sessionUser(id: number): Promise<AuthUser | null> {
    const row = await this.repo.byId(id);
    return row && row.is_active === 1 ? toAuthUser(row) : null;
  }

  /**
   * The active user these credentials belong to, or null. Unknown usernames cost the same
   * time as wrong passwords, so they cannot be told apart by timing.
   */
  async verifyCredentials(username: string, password: string): Promise<AuthUser | null> {
    const row = await this.repo.byUsername(username);
    const ok = row ? await verifyPassword(row.password_hash, password) : (await burnVerify(password), false);
    return row && ok && row.is_active === 1 ? toAuthUser(row) : null;
  }

  /** Stamps last_login and writes the activity row of a sign-in. */
  async recordLogin(user: AuthUser): Promise<void> {
    await this.repo.setLastLogin(user.id, new Date().toISOString());
    await recordActivity(this.db, 'login', msg('activity.signed_in', { name: user.full_name || user.username }), user.username);
  }

  /**
   * When there are no users yet, creates the first admin. Without a password given, one is
   * generated and returned so the caller can show it once.
   */
  async ensureFirstAdmin(username: string, password: string | undefined): Promise<{ created: boolean; generatedPassword?: string }> {
    if ((await this.repo.count()) > 0) return { created: false };
    const chosen = password ?? crypto.randomBytes(12).toString('base64url');
    await this.repo.insert({
      username,
      email: `${username}@localhost`,
      full_name: 'Administrator',
      role: 'admin',
      is_active: 1,
      password_hash: await hashPassword(chosen),
      created_at: new Date().toISOString(),
      last_login: null,
    });
    return password === undefined ? { created: true, generatedPassword: chosen } : { created: true };
  }

  /**
   * For a locked-out account (the reset-password CLI): sets a new password, re-activates the
   * account and signs it out everywhere. Returns the stored username, or null when there is none.
   */
  async resetPassword(username: string, password: string): Promise<string | null> {
    const row = await this.repo.byUsername(username);
    if (!row) return null;
    await this.repo.update(row.id, { password_hash: await hashPassword(password), is_active: 1 });
    await this.sessions.destroyUserSessions(row.id);
    return row.username;
  }

  async create(input: UserInput, actor: AuthUser | null): Promise<ApiUser> {
    if (await this.repo.byUsername(input.username!)) throw taken(input.username!);
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
    await recordActivity(this.db, 'user_created', msg('activity.user_created', { username: row.username, role: row.role }), actor?.username ?? null);
    return userRowToUser(row);
  }

  /** `currentSid`: the session making the change, kept when users change their own password. */
  async update(id: number, input: UserInput, actor: AuthUser, currentSid?: string): Promise<ApiUser> {
    const current = await this.repo.byId(id);
    if (!current) throw notFound('errors.users.not_found');
    if (input.username !== undefined && input.username.toLowerCase() !== current.username.toLowerCase()) {
      if (await this.repo.byUsername(input.username)) throw taken(input.username);
    }
    const patch: UserUpdate = {};
    if (input.username !== undefined) patch.username = input.username;
    if (input.email !== undefined) patch.email = input.email;
    if (input.full_name !== undefined) patch.full_name = input.full_name;
    if (input.role !== undefined) patch.role = input.role;
    if (input.is_active !== undefined) patch.is_active = input.is_active ? 1 : 0;
    if (input.password !== undefined) patch.password_hash = await hashPassword(input.password);
    // The last-admin rule is checked by the write itself (two admins may demote each other at once).
    const row = Object.keys(patch).length > 0 ? await this.repo.updateKeepingAnAdmin(id, patch) : current;
    if (row === 'last-admin') throw conflict(LAST_ADMIN);
    if (!row) throw notFound('errors.users.not_found');
    if (input.is_active === false && current.is_active === 1) await this.sessions.destroyUserSessions(id);
    // A new password ends every other session of the account; the one that changed it stays signed in.
    if (input.password !== undefined) await this.sessions.destroyUserSessions(id, id === actor.id ? currentSid : undefined);
    return userRowToUser(row);
  }

  async toggleActive(id: number, actor: AuthUser): Promise<ApiUser> {
    const current = await this.repo.byId(id);
    if (!current) throw notFound('errors.users.not_found');
    if (current.is_active === 1 && id === actor.id) throw conflict('errors.users.deactivate_self');
    return this.update(id, { is_active: current.is_active !== 1 }, actor);
  }

  async delete(id: number, actor: AuthUser): Promise<void> {
    const current = await this.repo.byId(id);
    if (!current) throw notFound('errors.users.not_found');
    if (id === actor.id) throw conflict('errors.users.delete_self');
    const outcome = await this.repo.deleteKeepingAnAdmin(id);
    if (outcome === 'last-admin') throw conflict(LAST_ADMIN);
    if (outcome === 'not-found') throw notFound('errors.users.not_found');
    await this.sessions.destroyUserSessions(id);
  }
}
