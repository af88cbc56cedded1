import type { Kysely } from 'kysely';
import type { ActivityItem } from '../../common/api-types.js';
import type { ActivityRow, ActivityType, DB } from '../db/schema.js';

export const activityRowToItem = (r: ActivityRow): ActivityItem => ({
  id: r.id,
  type: r.type,
  description: r.description,
  timestamp: r.created_at,
  user_name: r.user_name,
});

export async function recordActivity(
  db: Kysely<DB>,
  type: ActivityType,
  description: string,
  userName: string | null = null,
): Promise<void> {
  await db
    .insertInto('activity')
    .values({ type, description, user_name: userName, created_at: new Date().toISOString() })
    .execute();
}

export async function latestActivity(db: Kysely<DB>, limit = 20): Promise<ActivityItem[]> {
  const rows = await db.selectFrom('activity').selectAll().orderBy('id', 'desc').limit(limit).execute();
  return rows.map(activityRowToItem);
}
