import { openDatabase } from '../db/open.js';
import { Bucket, classify } from './bucket.js';
import { effectiveSettings, isConfigured, type OffsiteEnv, type OffsiteSettings } from './offsite.config.js';

/**
 * For programs beside the site (the backup): originals the local disk gave up, fetched from the
 * bucket the site's settings name (S3_* over what the settings page saved), SHA-256 checked.
 * `fetch` is false for an original the bucket is not recorded to hold instead of the disk.
 */
export function originalsFromBucket(databaseFile: string, env: OffsiteEnv): { fetch(rel: string, dest: string): Promise<boolean>; close(): void } {
  const db = openDatabase(databaseFile, { readonly: true, fileMustExist: true });
  const hasTable = !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'offsite_objects'`).get();
  const saved = hasTable ? (db.prepare(`SELECT value FROM offsite_meta WHERE key = 'settings'`).get() as { value: string } | undefined) : undefined;
  const settings = effectiveSettings(env, saved ? (JSON.parse(saved.value) as Partial<OffsiteSettings>) : {});
  let bucket: Bucket | null = null;
  return {
    async fetch(rel, dest) {
      if (!hasTable) return false;
      const row = db.prepare(`SELECT sha256, state, evicted FROM offsite_objects WHERE rel = ?`).get(rel) as { sha256: string | null; state: string; evicted: number } | undefined;
      if (!row || row.evicted !== 1 || row.state !== 'copied') return false;
      if (!isConfigured(settings)) throw new Error(`The original ${rel} is kept only in the bucket, and no bucket is set up (S3_* or the settings page)`);
      bucket ??= new Bucket(settings);
      try {
        await bucket.download(rel, dest, { sha256: row.sha256 });
      } catch (err) {
        const e = classify(err);
        throw new Error(`The original ${rel} is kept only in the bucket, and it could not be fetched (${e.problem}): ${e.message}`);
      }
      return true;
    },
    close() {
      bucket?.destroy();
      db.close();
    },
  };
}
