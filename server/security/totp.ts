import crypto from 'node:crypto';

/**
 * Authenticator codes, RFC 6238 (TOTP over RFC 4226's HOTP): HMAC-SHA-1, 30-second steps,
 * 6 digits: what every authenticator app reads from an otpauth:// QR code. Written here on
 * node:crypto; the whole algorithm is the two functions below.
 */
export const STEP_SECONDS = 30;
export const DIGITS = 6;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding, the form authenticator apps take secrets in. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=-]/g, '');
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of clean) {
    const i = ALPHABET.indexOf(c);
    if (i < 0) throw new Error('Not base32');
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new secret: 20 random bytes (160 bits, RFC 4226's recommended length), base32. */
export function newSecret(): string {
  return base32Encode(crypto.randomBytes(20));
}

/** RFC 4226 HOTP: the 6-digit code of `counter`. */
export function hotp(secret: Buffer, counter: number): string {
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const mac = crypto.createHmac('sha1', secret).update(msg).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const n = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(n % 10 ** DIGITS).padStart(DIGITS, '0');
}

/** The 30-second step a time falls in. */
export const stepAt = (ms: number) => Math.floor(ms / 1000 / STEP_SECONDS);

/** The code an authenticator shows at `ms`. */
export function totp(secretBase32: string, ms = Date.now()): string {
  return hotp(base32Decode(secretBase32), stepAt(ms));
}

/**
 * The step whose code `code` is, looking one step either side of now (a phone's clock a little
 * off, or a code typed as it changed), or null. Steps at or before `after` are refused: a code
 * that signed in once never signs in again.
 */
export function matchStep(secretBase32: string, code: string, ms: number, after = 0): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const key = base32Decode(secretBase32);
  const now = stepAt(ms);
  for (const step of [now, now - 1, now + 1]) {
    if (step <= after) continue;
    if (crypto.timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) return step;
  }
  return null;
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function otpauthUrl(secretBase32: string, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const q = new URLSearchParams({ secret: secretBase32, issuer, algorithm: 'SHA1', digits: String(DIGITS), period: String(STEP_SECONDS) });
  return `otpauth://totp/${label}?${q}`;
}
