import crypto from 'node:crypto';

interface Grant {
  photoId: string;
  userId: number;
  expires: number;
}

/**
 * Short-lived links to an original, kept in memory: a token is unguessable, names one photo and
 * works only for the admin who asked for it. It stays valid until expiry (not single-use) so a
 * browser can resume a large download with Range requests.
 */
export class DownloadTokens {
  private readonly grants = new Map<string, Grant>();

  constructor(private readonly ttlMs = 5 * 60_000) {}

  create(photoId: string, userId: number, now = Date.now()): string {
    this.prune(now);
    const token = crypto.randomBytes(32).toString('base64url');
    this.grants.set(token, { photoId, userId, expires: now + this.ttlMs });
    return token;
  }

  /** 'ok', 'expired' (unknown, for another photo, or past its time) or 'wrong-user'. */
  check(token: string, photoId: string, userId: number | undefined, now = Date.now()): 'ok' | 'expired' | 'wrong-user' {
    const g = this.grants.get(token);
    if (!g || g.photoId !== photoId) return 'expired';
    if (g.expires <= now) {
      this.grants.delete(token);
      return 'expired';
    }
    return g.userId === userId ? 'ok' : 'wrong-user';
  }

  private prune(now: number): void {
    for (const [t, g] of this.grants) if (g.expires <= now) this.grants.delete(t);
  }
}
