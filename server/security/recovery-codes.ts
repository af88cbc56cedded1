import crypto from 'node:crypto';

/** How many one-time recovery codes an account gets when it turns authenticator codes on. */
export const RECOVERY_CODE_COUNT = 10;

// Letters and digits that cannot be mistaken for one another when copied from paper.
const CHARS = 'abcdefghjkmnpqrstuvwxyz23456789';

/** "k7m2p-9xq4r": 10 characters of 31 (about 50 bits), far beyond guessing within the sign-in limit. */
export function newRecoveryCode(): string {
  const s = Array.from({ length: 10 }, () => CHARS[crypto.randomInt(CHARS.length)]).join('');
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** What is compared: case, spaces and dashes do not matter. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Recovery codes are random, so a plain SHA-256 keeps them as safe as a slow hash would. */
export const hashRecoveryCode = (code: string) => crypto.createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');

/** Looks like a recovery code rather than a 6-digit authenticator code. */
export const isRecoveryCodeShape = (code: string) => /^[a-z0-9]{10}$/.test(normaliseRecoveryCode(code)) && !/^\d+$/.test(code);
