import type { Config } from '../config.js';
import { invalid } from '../errors.js';

/** Where a request came to, as the HTTP layer saw it (X-Forwarded-* only when TRUST_PROXY trusts the hop). */
export interface RequestOrigin {
  protocol: string;
  /** The Host (or trusted X-Forwarded-Host) value; empty when the request had none. */
  host: string | undefined;
}

/** The address guests reach the site at: PUBLIC_URL when set, else the request's own origin. */
export function publicBaseUrl(config: Config, origin: RequestOrigin): string {
  if (config.publicUrl) return config.publicUrl;
  const { host, protocol } = origin;
  if (!host) throw invalid('errors.qr.no_host');
  try {
    const u = new URL(`${protocol}://${host}`);
    if (u.username || u.password || u.pathname !== '/' || u.search || u.hash) throw new Error('not a bare host');
    return u.origin;
  } catch {
    throw invalid('errors.qr.bad_host');
  }
}

export const liveUrl = (base: string) => `${base}/live`;
