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
}
