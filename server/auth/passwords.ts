import argon2, { type HashOptions } from 'argon2';

/**
 * argon2id with the library's defaults (64 MiB, 3 passes, 4 lanes: about 0.2 s of CPU here):
 * strong, and fast enough on a home server for a few sign-ins a minute. The test suite
 * (NODE_ENV=test, set by scripts/test.mjs) signs in and creates accounts hundreds of times, so
 * it hashes with the smallest cost argon2id allows in practice, as test settings of web
 * frameworks do; the hash is still argon2id, and a check reads its cost from the hash itself.
 */
const OPTIONS: HashOptions = process.env.NODE_ENV === 'test' ? { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 } : { type: argon2.argon2id };

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check, so unknown usernames cannot be told apart by timing. */
export async function burnVerify(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-' + Math.random());
  await verifyPassword(await dummyHash, password);
}
