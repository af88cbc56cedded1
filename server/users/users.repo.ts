import type { Kysely } from 'kysely';
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

  async countActiveAdmins(): Promise<number> {
    const r = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'admin')
      .where('is_active', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insert(row: NewUserRow): Promise<UserRow> {
    return this.db.insertInto('users').values(row).returningAll().executeTakeFirstOrThrow();
  }

  async update(id: number, patch: UserUpdate): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async setLastLogin(id: number, at: string): Promise<void> {
    await this.db.updateTable('users').set({ last_login: at }).where('id', '=', id).execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
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
