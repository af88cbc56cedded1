import type { Kysely } from 'kysely';
import type { ActivityItem } from '../../common/api-types.js';
import { msg, type Message } from '../../common/languages.js';
import type { ActivityRow, ActivityType, DB } from '../db/schema.js';
import { inEnglish } from '../i18n/english.js';
import { render } from '../i18n/messages.js';

/** A row as the dashboard shows it, its line in `lang` (rows from before lines were messages stay English). */
export function activityRowToItem(r: ActivityRow, lang = 'en'): ActivityItem {
  let description = r.description;
  if (r.message) {
    try {
      description = render(lang, JSON.parse(r.message) as Message);
    } catch {
      /* an unreadable message: the English kept beside it */
    }
  }
  return { id: r.id, type: r.type, description, timestamp: r.created_at, user_name: r.user_name };
}

/** The columns that hold a line: its English, and the message to show it in any language. */
const line = (m: Message) => ({ description: inEnglish(m.key, m.values), message: JSON.stringify(m) });

export async function recordActivity(db: Kysely<DB>, type: ActivityType, description: Message, userName: string | null = null): Promise<void> {
  await db
    .insertInto('activity')
    .values({ type, ...line(description), user_name: userName, created_at: new Date().toISOString() })
    .execute();
}

/** Files from one guest closer together than this are one burst: one activity row. */
export const UPLOAD_BURST_MS = 10 * 60_000;

/** "Anna uploaded 12 photos", "A guest uploaded 2 photos and 1 video"; one file keeps its name. */
export function uploadBurstText(name: string | null, photos: number, videos: number, filename: string): Message {
  if (photos + videos === 1) {
    if (name) return msg(videos ? 'activity.upload_video_named' : 'activity.upload_photo_named', { name, file: filename });
    return msg(videos ? 'activity.upload_video' : 'activity.upload_photo', { file: filename });
  }
  const counted = [photos && msg('activity.count_photos', { count: photos }), videos && msg('activity.count_videos', { count: videos })].filter((m): m is Message => !!m);
  const what = counted.length === 2 ? msg('activity.count_both', { photos: counted[0], videos: counted[1] }) : counted[0];
  return name ? msg('activity.upload_many_named', { name, what }) : msg('activity.upload_many', { what });
}

/**
 * One uploaded file. A guest's files within UPLOAD_BURST_MS of their last one add to that row
 * (its counts, text and time), so a guest sending 40 photos is one line, not forty. The read and
 * the write run in one transaction: parallel uploads from one phone never split a burst.
 */
export async function recordUploadActivity(
  db: Kysely<DB>,
  u: { guestId: string | null; name: string | null; kind: 'photo' | 'video'; filename: string },
): Promise<void> {
  const now = new Date();
  const isVideo = u.kind === 'video' ? 1 : 0;
  const write = async (tx: Kysely<DB>) => {
    const last = u.guestId
      ? await tx
          .selectFrom('activity')
          .select(['id', 'created_at', 'photo_count', 'video_count', 'user_name'])
          .where('guest_id', '=', u.guestId)
          .where('type', '=', 'upload')
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst()
      : undefined;
    const recent = last && now.getTime() - Date.parse(last.created_at) < UPLOAD_BURST_MS && (last.user_name ?? null) === u.name;
    if (last && recent) {
      const photos = last.photo_count + 1 - isVideo;
      const videos = last.video_count + isVideo;
      await tx
        .updateTable('activity')
        .set({ photo_count: photos, video_count: videos, ...line(uploadBurstText(u.name, photos, videos, u.filename)), created_at: now.toISOString() })
        .where('id', '=', last.id)
        .execute();
      return;
    }
    await tx
      .insertInto('activity')
      .values({
        type: 'upload',
        ...line(uploadBurstText(u.name, 1 - isVideo, isVideo, u.filename)),
        user_name: u.name,
        created_at: now.toISOString(),
        guest_id: u.guestId,
        photo_count: 1 - isVideo,
        video_count: isVideo,
      })
      .execute();
  };
  // Inside a caller's transaction already (the photo's insert), the write joins it.
  await (db.isTransaction ? write(db) : db.transaction().execute(write));
}

export async function latestActivity(db: Kysely<DB>, limit = 20, lang = 'en'): Promise<ActivityItem[]> {
  // A burst's row moves up as its files arrive: newest change first.
  const rows = await db.selectFrom('activity').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => activityRowToItem(r, lang));
}
