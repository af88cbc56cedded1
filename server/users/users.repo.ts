import type { ExpressionBuilder, Kysely } from 'kysely';
import type { ApiUser } from '../../common/api-types.js';
import type { DB, NewUserRow, UserRow, UserUpdate } from '../db/schema.js';

// The API's user shape is declared once, for server and client, in common/api-types.ts.
export type { ApiUser } from '../../common/api-types.js';

export const userRowToUser = (r: UserRow): ApiUser => ({
  id: r.id,
  username: r.username,
  email: r.email,
  full_name: r.full_name,
  role: r.role,
  is_active: r.is_active === 1,
  created_at: r.created_at,
  last_login: r.last_login,
});

export class UsersRepo {
  constructor(private readonly db: Kysely<DB>) {}

  list(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('id').execute();
  }

  byId(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byUsername(username: string): Promise<UserRow | undefined> {
    // The column is COLLATE NOCASE: "Anna" and "anna" are the same account.
    return this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  async count(): Promise<number> {
    const r = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insert(row: NewUserRow): Promise<UserRow> {
    return this.db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, patch: UserUpdate): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /**
   * Updates a user unless that leaves no active admin. The check and the write are one SQL
   * statement, so two admins demoting or deactivating each other at once cannot both pass.
   */
  async updateKeepingAnAdmin(id: number, patch: UserUpdate): Promise<UserRow | undefined | 'last-admin'> {
    const losing = (patch.role !== undefined && patch.role !== 'admin') || patch.is_active === 0;
    if (!losing) return this.update(id, patch);
    const row = await this.db.updateTable('users').set(patch).where('id', '=', id).where(this.notLastAdmin(id)).returningAll().executeTakeFirst();
    return row ?? ((await this.byId(id)) ? 'last-admin' : undefined);
  }

  /** Deletes a user unless it is the last active admin (check and delete in one statement). */
  async deleteKeepingAnAdmin(id: number): Promise<'deleted' | 'last-admin' | 'not-found'> {
    const r = await this.db.deleteFrom('users').where('id', '=', id).where(this.notLastAdmin(id)).executeTakeFirst();
    if (Number(r.numDeletedRows) > 0) return 'deleted';
    return (await this.byId(id)) ? 'last-admin' : 'not-found';
  }

  /** The row is not an active admin, or another active admin exists. */
  private notLastAdmin(id: number) {
    return (eb: ExpressionBuilder<DB, 'users'>) =>
      eb.or([
        eb('role', '!=', 'admin'),
        eb('is_active', '!=', 1),
        eb.exists(
          eb.selectFrom('users as other').select('other.id').where('other.role', '=', 'admin').where('other.is_active', '=', 1).where('other.id', '!=', id),
        ),
      ]);
  }

  async setLastLogin(id: number, at: string): Promise<void> {
    await this.db.updateTable('users').set({ last_login: at }).where('id', '=', id).execute();
  }

  async stats(): Promise<{ total_users: number; active_users: number; admin_users: number; family_users: number }> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>(eb.case().when('is_active', '=', 1).then(1).else(0).end()).as('active'),
        eb.fn.sum<number>(eb.case().when('role', '=', 'admin').then(1).else(0).end()).as('admins'),
        eb.fn.sum<number>(eb.case().when('role', '=', 'family').then(1).else(0).end()).as('family'),
      ])
      .executeTakeFirstOrThrow();
    return {
      total_users: Number(r.total),
      active_users: Number(r.active ?? 0),
      admin_users: Number(r.admins ?? 0),
      family_users: Number(r.family ?? 0),
    };
  }
}
