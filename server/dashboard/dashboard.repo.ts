import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** The dashboard's own reads over photos and uploads (it writes nothing). */
export class DashboardRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Uploads since `sinceIso`, counted per UTC day. SQLite's date() reads any ISO 8601 time with
   * a zone, so the grouping does not depend on how a timestamp was written.
   */
  async uploadsPerDay(sinceIso: string): Promise<Map<string, number>> {
    const rows = await sql<{ day: string; n: number }>`
      SELECT date(upload_timestamp) AS day, count(*) AS n FROM photos
      WHERE julianday(upload_timestamp) >= julianday(${sinceIso})
      GROUP BY day`.execute(this.db);
    return new Map(rows.rows.map((r) => [r.day, Number(r.n)]));
  }

  async countSince(sinceIso: string): Promise<number> {
    const r = await sql<{ n: number }>`
      SELECT count(*) AS n FROM photos WHERE julianday(upload_timestamp) >= julianday(${sinceIso})`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0);
  }

  /** Files still processing, by the tools they need: videos (ffmpeg, ffprobe) and HEIC photos (heif-convert). */
  async processingByKind(): Promise<{ videos: number; heic: number }> {
    const r = await sql<{ videos: number; heic: number }>`
      SELECT coalesce(sum(content_type LIKE 'video/%'), 0) AS videos, coalesce(sum(content_type IN ('image/heic', 'image/heif')), 0) AS heic
      FROM photos WHERE status = 'processing'`.execute(this.db);
    return { videos: Number(r.rows[0]?.videos ?? 0), heic: Number(r.rows[0]?.heic ?? 0) };
  }

  /** Guestbook messages: all of them, and those waiting (not visible). */
  async guestbookCounts(): Promise<{ total: number; pending: number }> {
    const r = await sql<{ total: number; pending: number | null }>`
      SELECT count(*) AS total, sum(is_visible = 0) AS pending FROM guestbook`.execute(this.db);
    return { total: Number(r.rows[0]?.total ?? 0), pending: Number(r.rows[0]?.pending ?? 0) };
  }

  /** Photos per challenge id: all stored, and visible. */
  async challengeCounts(): Promise<Map<string, { total: number; visible: number }>> {
    const r = await sql<{ challenge_id: string; total: number; visible: number }>`
      SELECT challenge_id, count(*) AS total, sum(is_visible) AS visible FROM photos
      WHERE challenge_id IS NOT NULL GROUP BY challenge_id`.execute(this.db);
    return new Map(r.rows.map((x) => [x.challenge_id, { total: Number(x.total), visible: Number(x.visible) }]));
  }
}
