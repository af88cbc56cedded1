import type { Request } from 'express';
import type { Config } from '../config.js';
import { badRequest } from '../http/errors.js';

/**
 * The address guests reach the site at: PUBLIC_URL when set, else this request's own origin
 * (req.protocol and req.host follow X-Forwarded-* only when TRUST_PROXY trusts the hop).
 */
export function publicBaseUrl(config: Config, req: Request): string {
  if (config.publicUrl) return config.publicUrl;
  const host = req.host;
  if (!host) throw badRequest('The request has no Host header, so the site address is unknown. Set PUBLIC_URL.');
  try {
    const u = new URL(`${req.protocol}://${host}`);
    if (u.username || u.password || u.pathname !== '/' || u.search || u.hash) throw new Error('not a bare host');
    return u.origin;
  } catch {
    throw badRequest('The Host header is not a valid address. Set PUBLIC_URL.');
  }
}

export const liveUrl = (base: string) => `${base}/live`;
