import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** How long a booth picture's QR code opens it. */
export const SHARE_DAYS = 7;
/** The cookie a tablet keeps its booth token in. */
export const BOOTH_COOKIE = 'wedding_booth';
/** What every booth picture is stored under. */
export const BOOTH_NAME = 'Photo booth';

const hash = (token: string) => crypto.createHash('sha256').update(token).digest('hex');
const token = () => crypto.randomBytes(24).toString('base64url');
const TOKEN = /^[A-Za-z0-9_-]{32}$/;

export interface BoothInfo {
  id: string;
  created_at: string;
  created_by_name: string | null;
  last_used_at: string | null;
  revoked: boolean;
}

/**
 * The photo booth's tablets and their pictures' QR codes. A tablet's token is given once, when a
 * signed-in user opens the booth on it; afterwards it alone lets that browser upload booth
 * pictures, until it is revoked. Only tokens' hashes are stored.
 */
export class Booths {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly now: () => number = Date.now,
  ) {}

  /** A new booth opened by user `by`; returns its id and the token for the tablet's cookie. */
  async open(by: { id: number; name: string | null }): Promise<{ id: string; token: string }> {
    const t = token();
    const id = crypto.randomBytes(9).toString('base64url');
    await this.db
      .insertInto('booths')
      .values({ id, token_hash: hash(t), created_by: by.id, created_by_name: by.name, created_at: new Date(this.now()).toISOString(), last_used_at: null, revoked_at: null })
      .execute();
    return { id, token: t };
  }

  /** The booth this token belongs to, while it is not revoked. */
  async byToken(t: string | undefined): Promise<{ id: string } | undefined> {
    if (!t || !TOKEN.test(t)) return undefined;
    return this.db.selectFrom('booths').select('id').where('token_hash', '=', hash(t)).where('revoked_at', 'is', null).executeTakeFirst();
  }

  async list(): Promise<BoothInfo[]> {
    const rows = await this.db.selectFrom('booths').selectAll().orderBy('created_at', 'desc').execute();
    return rows.map((r) => ({ id: r.id, created_at: r.created_at, created_by_name: r.created_by_name, last_used_at: r.last_used_at, revoked: r.revoked_at !== null }));
  }

  /** Revokes a booth (its tablet can no longer upload); false when there is none. */
  async revoke(id: string): Promise<boolean> {
    const r = await this.db.updateTable('booths').set({ revoked_at: new Date(this.now()).toISOString() }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** The QR code's token for a picture the booth just uploaded: it opens that picture for SHARE_DAYS. */
  async share(boothId: string, photoId: string): Promise<{ token: string; expires_at: string }> {
    const t = token();
    const now = this.now();
    const expires_at = new Date(now + SHARE_DAYS * 86_400_000).toISOString();
    await this.db.insertInto('booth_shares').values({ token_hash: hash(t), photo_id: photoId, booth_id: boothId, created_at: new Date(now).toISOString(), expires_at }).execute();
    await this.db.updateTable('booths').set({ last_used_at: new Date(now).toISOString() }).where('id', '=', boothId).execute();
    return { token: t, expires_at };
  }

  /** The photo a QR code's token opens, while it has not expired (approved or not). */
  async shared(t: string): Promise<string | undefined> {
    if (!TOKEN.test(t)) return undefined;
    const r = await this.db.selectFrom('booth_shares').select(['photo_id', 'expires_at']).where('token_hash', '=', hash(t)).executeTakeFirst();
    return r && Date.parse(r.expires_at) > this.now() ? r.photo_id : undefined;
  }
}
