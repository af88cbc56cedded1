import path from 'node:path';
import { passwordProblem, USERNAME_PATTERN } from '../common/rules.js';
import { inEnglish } from './i18n/english.js';
import { offsiteFromEnv, type OffsiteEnv } from './offsite/offsite.config.js';

/** Everything the server reads from the environment, parsed once. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly adminUsername: string;
  /** undefined: generate one on first start and print it once. */
  readonly adminPassword: string | undefined;
  /** undefined: generated once and kept in DATA_DIR. */
  readonly sessionSecret: string | undefined;
  readonly coupleNames: readonly [string, string] | undefined;
  readonly uploadsEnabled: boolean;
  /** bytes; undefined: the size of the filesystem holding DATA_DIR. */
  readonly storageLimitBytes: number | undefined;
  /** MIN_FREE_MB in bytes: uploads never leave less than this free on DATA_DIR's file system. */
  readonly minFreeBytes: number;
  /** A request body that sends nothing for this long, or less than 1 KiB/s over it, is ended (BODY_IDLE_TIMEOUT_S). */
  readonly bodyIdleTimeoutMs: number;
  /** Upload requests in progress at once, server-wide; more are answered 503 (MAX_UPLOAD_REQUESTS). */
  readonly maxUploadRequests: number;
  /** Live event streams open at once, server-wide; more are answered 503 (MAX_EVENT_STREAMS). */
  readonly maxEventStreams: number;
  readonly trustProxy: boolean | number | string;
  readonly maxUploadBytes: number;
  readonly publicUrl: string | undefined;
  readonly ffmpegPath: string;
  readonly ffprobePath: string;
  /** Processing jobs run at once; defaults to the number of cores. */
  readonly processingConcurrency: number;
  /** Face search processes at once (FACE_WORKERS, default 1: each holds the networks, ~470 MiB at its peak). */
  readonly faceWorkers: number;
  /** The face workers' nice value (FACE_NICE, default 19: everything else first). */
  readonly faceNice: number;
  /** "Regenerate all thumbnails" answers after at most this long while the work goes on (REGENERATE_ANSWER_S). */
  readonly regenerateAnswerMs: number;
  /** Each step of processing is stopped after this long (a re-encode gets 30 s more per second of video) (PROCESSING_TIME_LIMIT_S). */
  readonly processingStepMs: number;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** The couple's bucket, as far as S3_* set it (the settings page fills in the rest). */
  readonly offsite: OffsiteEnv;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const GIB = 1024 ** 3;

type Env = Record<string, string | undefined>;

/** Parses the environment; throws ConfigError naming every bad variable at once. */
export function loadConfig(env: Env = process.env, defaults: { cores?: number } = {}): Config {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const v = text(name);
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${v}")`);
      return fallback;
    }
    return Number(v);
  };

  const positiveNumber = (name: string): number | undefined => {
    const v = text(name);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!/^\d+(\.\d+)?$/.test(v) || !(n > 0)) {
      problems.push(`${name} must be a positive number (got "${v}")`);
      return undefined;
    }
    return n;
  };

  const bool = (name: string, fallback: boolean): boolean => {
    const v = text(name)?.toLowerCase();
    if (v === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(v)) return true;
    if (['0', 'false', 'no', 'off'].includes(v)) return false;
    problems.push(`${name} must be true or false (got "${env[name]}")`);
    return fallback;
  };

  const port = int('PORT', 3000, 0, 65535);
  const host = text('HOST') ?? '0.0.0.0';
  const dataDir = path.resolve(text('DATA_DIR') ?? './data');

  const adminUsername = text('ADMIN_USERNAME') ?? 'admin';
  if (!USERNAME_PATTERN.test(adminUsername)) {
    problems.push('ADMIN_USERNAME must be 3 to 50 letters, digits or . _ - @');
  }
  const adminPassword = env.ADMIN_PASSWORD === undefined || env.ADMIN_PASSWORD === '' ? undefined : env.ADMIN_PASSWORD;
  const passwordIssue = adminPassword === undefined ? null : passwordProblem(adminPassword, 'ADMIN_PASSWORD');
  // The operator reads these in the log: in English, as the rest of it.
  if (passwordIssue) problems.push(inEnglish(passwordIssue.key, passwordIssue.values).replace(/\.$/, ''));

  const sessionSecret = text('SESSION_SECRET');
  if (sessionSecret !== undefined && sessionSecret.length < 16) {
    problems.push('SESSION_SECRET must be at least 16 characters');
  }

  let coupleNames: [string, string] | undefined;
  const names = text('COUPLE_NAMES');
  if (names !== undefined) {
    const parts = names.split(/\s*(?:&|\band\b)\s*/i).filter(Boolean);
    if (parts.length !== 2 || parts.some((p) => p.length > 60)) {
      problems.push(`COUPLE_NAMES must look like "Name & Name" (got "${names}")`);
    } else {
      coupleNames = [parts[0], parts[1]];
    }
  }

  const uploadsEnabled = bool('UPLOADS_ENABLED', true);
  const storageGb = positiveNumber('STORAGE_LIMIT_GB');
  const minFreeMb = int('MIN_FREE_MB', 1024, 0, 1024 * 1024 * 1024);
  const bodyIdleS = int('BODY_IDLE_TIMEOUT_S', 60, 1, 3600);
  const maxUploadRequests = int('MAX_UPLOAD_REQUESTS', 300, 1, 100_000);
  const maxEventStreams = int('MAX_EVENT_STREAMS', 500, 1, 100_000);
  const maxUploadGb = positiveNumber('MAX_UPLOAD_GB') ?? 2;

  let trustProxy: boolean | number | string = false;
  const tp = text('TRUST_PROXY');
  if (tp !== undefined) {
    const lower = tp.toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(lower)) trustProxy = true;
    else if (['0', 'false', 'no', 'off'].includes(lower)) trustProxy = false;
    else if (/^\d+$/.test(tp)) trustProxy = Number(tp);
    else if (/^[0-9a-f.:/, ]+$|^(loopback|linklocal|uniquelocal)/i.test(tp)) trustProxy = tp;
    else problems.push(`TRUST_PROXY must be true, false, a hop count or a list of addresses (got "${tp}")`);
  }

  let publicUrl = text('PUBLIC_URL');
  if (publicUrl !== undefined) {
    try {
      const u = new URL(publicUrl);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
      publicUrl = u.origin + u.pathname.replace(/\/+$/, '');
    } catch {
      problems.push(`PUBLIC_URL must be an http(s) address such as https://our-wedding.example (got "${publicUrl}")`);
      publicUrl = undefined;
    }
  }

  const ffmpegPath = text('FFMPEG_PATH') ?? 'ffmpeg';
  const ffprobePath =
    text('FFPROBE_PATH') ?? (ffmpegPath.endsWith('ffmpeg') ? ffmpegPath.slice(0, -'ffmpeg'.length) + 'ffprobe' : 'ffprobe');

  const processingConcurrency = int('PROCESSING_CONCURRENCY', Math.max(1, defaults.cores ?? 2), 1, 64);
  const faceWorkers = int('FACE_WORKERS', 1, 1, 16);
  const faceNice = int('FACE_NICE', 19, 0, 19);
  const regenerateAnswerS = int('REGENERATE_ANSWER_S', 60, 1, 3600);
  const processingStepS = int('PROCESSING_TIME_LIMIT_S', 120, 1, 86400);

  const level = (text('LOG_LEVEL') ?? 'info').toLowerCase();
  const levels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
  if (!(levels as readonly string[]).includes(level)) {
    problems.push(`LOG_LEVEL must be one of ${levels.join(', ')} (got "${level}")`);
  }

  const offsite = offsiteFromEnv(env, problems);

  if (problems.length > 0) throw new ConfigError(problems);

  return Object.freeze({
    port,
    host,
    dataDir,
    adminUsername,
    adminPassword,
    sessionSecret,
    coupleNames,
    uploadsEnabled,
    storageLimitBytes: storageGb === undefined ? undefined : Math.round(storageGb * GIB),
    minFreeBytes: minFreeMb * 1024 * 1024,
    bodyIdleTimeoutMs: bodyIdleS * 1000,
    maxUploadRequests,
    maxEventStreams,
    trustProxy,
    maxUploadBytes: Math.round(maxUploadGb * GIB),
    publicUrl,
    ffmpegPath,
    ffprobePath,
    processingConcurrency,
    faceWorkers,
    faceNice,
    regenerateAnswerMs: regenerateAnswerS * 1000,
    processingStepMs: processingStepS * 1000,
    logLevel: level as Config['logLevel'],
    offsite: Object.freeze(offsite),
  });
}

/** The resolved settings for the start-up log, secrets masked. */
export function describeConfig(c: Config): Record<string, unknown> {
  return {
    PORT: c.port,
    HOST: c.host,
    DATA_DIR: c.dataDir,
    ADMIN_USERNAME: c.adminUsername,
    ADMIN_PASSWORD: c.adminPassword ? '***' : '(generated on first start)',
    SESSION_SECRET: c.sessionSecret ? '***' : '(kept in DATA_DIR)',
    COUPLE_NAMES: c.coupleNames ? c.coupleNames.join(' & ') : '(default)',
    UPLOADS_ENABLED: c.uploadsEnabled,
    STORAGE_LIMIT_GB: c.storageLimitBytes ? +(c.storageLimitBytes / GIB).toFixed(2) : '(filesystem size)',
    MIN_FREE_MB: c.minFreeBytes / (1024 * 1024),
    BODY_IDLE_TIMEOUT_S: c.bodyIdleTimeoutMs / 1000,
    MAX_UPLOAD_REQUESTS: c.maxUploadRequests,
    MAX_EVENT_STREAMS: c.maxEventStreams,
    TRUST_PROXY: c.trustProxy,
    MAX_UPLOAD_GB: +(c.maxUploadBytes / GIB).toFixed(2),
    PUBLIC_URL: c.publicUrl ?? '(from each request)',
    FFMPEG_PATH: c.ffmpegPath,
    FFPROBE_PATH: c.ffprobePath,
    PROCESSING_CONCURRENCY: c.processingConcurrency,
    FACE_WORKERS: c.faceWorkers,
    FACE_NICE: c.faceNice,
    REGENERATE_ANSWER_S: c.regenerateAnswerMs / 1000,
    PROCESSING_TIME_LIMIT_S: c.processingStepMs / 1000,
    LOG_LEVEL: c.logLevel,
    ...(c.offsite.bucket
      ? {
          S3_ENDPOINT: c.offsite.endpoint ?? '(settings page)',
          S3_BUCKET: c.offsite.bucket,
          S3_PREFIX: c.offsite.prefix ?? '',
          S3_ACCESS_KEY_ID: c.offsite.access_key_id ? '***' : '(settings page)',
          S3_SECRET_ACCESS_KEY: c.offsite.secret_access_key ? '***' : '(settings page)',
          S3_SERVE: c.offsite.serve ?? false,
          S3_KEEP_LOCAL: c.offsite.keep_local ?? 'all',
        }
      : {}),
  };
}
