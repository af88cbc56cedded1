import { isIP } from 'node:net';
import type { PasskeySupport } from '../../common/security-types.js';
import type { RequestOrigin } from '../qr/public-url.js';

/** Where a passkey ceremony happens: the relying party id and the one origin a browser may use. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

const isLocalhost = (hostname: string) => hostname === 'localhost' || hostname.endsWith('.localhost');

/**
 * The relying party for a request that came to `origin`: PUBLIC_URL's host when set, else that host.
 * Browsers offer passkeys only in a secure context (HTTPS, or localhost) and never for a bare IP
 * address, and a passkey made for one host name works at that host name only; elsewhere the
 * answer says why not, so the sign-in page can explain instead of failing.
 */
export function relyingParty(publicUrl: string | undefined, origin: RequestOrigin): { rp: RelyingParty; support: PasskeySupport } | { rp: null; support: PasskeySupport } {
  let here: URL | undefined;
  try {
    if (origin.host) here = new URL(`${origin.protocol}://${origin.host}`);
  } catch {
    here = undefined;
  }
  const base = publicUrl ? new URL(publicUrl) : here;
  const no = (reason: PasskeySupport['reason'], useAt: string | null = null) => ({
    rp: null,
    support: { available: false, reason, rp_id: null, use_at: useAt },
  });
  if (!base || !here) return no('insecure');
  const secure = base.protocol === 'https:' ? !isIP(base.hostname.replace(/^\[|\]$/g, '')) : isLocalhost(base.hostname);
  if (publicUrl && here.origin !== base.origin) return no('other_address', secure ? base.origin : null);
  if (!secure) return no('insecure');
  return { rp: { rpID: base.hostname, origin: base.origin }, support: { available: true, reason: null, rp_id: base.hostname, use_at: null } };
}
