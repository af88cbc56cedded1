/**
 * Where the off-site copy goes: the couple's S3-compatible bucket. Set by S3_* variables or by an
 * admin on the settings page ("Off-site copy"); a variable that is set wins over the page.
 */
import type { OffsiteForm, OffsiteKeepLocal } from '../../common/offsite-types.js';

export type KeepLocal = OffsiteKeepLocal;

/** Every setting, as saved (the secret included); the form's fields. */
export type OffsiteSettings = OffsiteForm;

export type OffsiteField = keyof OffsiteSettings;

export const OFFSITE_DEFAULTS: OffsiteSettings = {
  endpoint: '',
  region: 'us-east-1',
  bucket: '',
  prefix: '',
  access_key_id: '',
  secret_access_key: '',
  force_path_style: true,
  serve: false,
  keep_local: 'all',
  public_url: '',
};

/** What the environment sets, field by field (absent: the page decides). */
export type OffsiteEnv = Partial<OffsiteSettings>;

const ENV_NAMES: Record<OffsiteField, string> = {
  endpoint: 'S3_ENDPOINT',
  region: 'S3_REGION',
  bucket: 'S3_BUCKET',
  prefix: 'S3_PREFIX',
  access_key_id: 'S3_ACCESS_KEY_ID',
  secret_access_key: 'S3_SECRET_ACCESS_KEY',
  force_path_style: 'S3_FORCE_PATH_STYLE',
  serve: 'S3_SERVE',
  keep_local: 'S3_KEEP_LOCAL',
  public_url: 'S3_PUBLIC_URL',
};

export const envName = (field: OffsiteField) => ENV_NAMES[field];

const truthy = ['1', 'true', 'yes', 'on'];
const falsy = ['0', 'false', 'no', 'off'];

/** Reads S3_* (problems in the operator's words, for ConfigError). */
export function offsiteFromEnv(env: Record<string, string | undefined>, problems: string[]): OffsiteEnv {
  const out: OffsiteEnv = {};
  const text = (name: string) => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  for (const field of ['endpoint', 'region', 'bucket', 'prefix', 'access_key_id', 'public_url'] as const) {
    const v = text(ENV_NAMES[field]);
    if (v !== undefined) out[field] = v;
  }
  // A secret may carry spaces at its ends on purpose? Never for S3 keys: trimmed like the rest.
  const secret = text('S3_SECRET_ACCESS_KEY');
  if (secret !== undefined) out.secret_access_key = secret;
  for (const field of ['force_path_style', 'serve'] as const) {
    const v = text(ENV_NAMES[field])?.toLowerCase();
    if (v === undefined) continue;
    if (truthy.includes(v)) out[field] = true;
    else if (falsy.includes(v)) out[field] = false;
    else problems.push(`${ENV_NAMES[field]} must be true or false (got "${env[ENV_NAMES[field]]}")`);
  }
  const keep = text('S3_KEEP_LOCAL')?.toLowerCase();
  if (keep !== undefined) {
    if (keep === 'all' || keep === 'derivatives') out.keep_local = keep;
    else problems.push(`S3_KEEP_LOCAL must be "all" or "derivatives" (got "${env.S3_KEEP_LOCAL}")`);
  }
  for (const field of ['endpoint', 'public_url'] as const) {
    const v = out[field];
    if (v !== undefined && !isHttpUrl(v)) {
      problems.push(`${ENV_NAMES[field]} must be an http(s) address such as https://s3.eu-central-003.backblazeb2.com (got "${v}")`);
      delete out[field];
    }
  }
  if (out.prefix !== undefined) out.prefix = normalizePrefix(out.prefix);
  return out;
}

export function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** "wedding", "/wedding/", "wedding//2026" -> "wedding/" and "wedding/2026/"; "" stays "". */
export function normalizePrefix(p: string): string {
  const parts = p.split('/').filter(Boolean);
  return parts.length ? parts.join('/') + '/' : '';
}

/** The page's values under the environment's. */
export function effectiveSettings(env: OffsiteEnv, page: Partial<OffsiteSettings>): OffsiteSettings {
  return { ...OFFSITE_DEFAULTS, ...page, ...env };
}

/** A bucket is set up once it has somewhere to go and a key to get in. */
export function isConfigured(s: OffsiteSettings): boolean {
  return !!(s.endpoint && s.bucket && s.access_key_id && s.secret_access_key);
}

/** What identifies the destination: a new one starts the copy over (everything is checked again). */
export function destinationOf(s: OffsiteSettings): string {
  return JSON.stringify([s.endpoint.replace(/\/+$/, ''), s.bucket, s.prefix]);
}

/** The presets the settings page offers (the endpoint has the account's or region's part to fill). */
export const OFFSITE_PRESETS = [
  { id: 'b2', name: 'Backblaze B2', endpoint: 'https://s3.<region>.backblazeb2.com', region: 'us-west-004', force_path_style: true },
  { id: 'r2', name: 'Cloudflare R2', endpoint: 'https://<account-id>.r2.cloudflarestorage.com', region: 'auto', force_path_style: true },
  { id: 's3', name: 'Amazon S3', endpoint: 'https://s3.<region>.amazonaws.com', region: 'eu-central-1', force_path_style: false },
  { id: 'minio', name: 'MinIO', endpoint: 'http://minio.lan:9000', region: 'us-east-1', force_path_style: true },
  { id: 'garage', name: 'Garage', endpoint: 'http://garage.lan:3900', region: 'garage', force_path_style: true },
] as const;
