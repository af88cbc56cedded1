// What an S3 request's failure means, in the terms the status and "Test connection" use.

/** What a failure means, for the status and the "Test connection" sentence. */
export type BucketProblem =
  | 'unreachable'
  | 'no_such_bucket'
  | 'wrong_key'
  | 'no_permission'
  | 'clock_skew'
  | 'bucket_error'
  | 'checksum_mismatch'
  | 'unknown';

export class BucketError extends Error {
  constructor(
    readonly problem: BucketProblem,
    message: string,
    /** The service's own code or the network error's, for the log. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'BucketError';
  }
}

/** Network-level or server-side: the bucket may be back later; nothing about this file. */
export const isPassing = (p: BucketProblem) => p === 'unreachable' || p === 'bucket_error' || p === 'clock_skew';

export interface SdkErrorLike {
  name?: string;
  code?: string;
  Code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
}

/** Maps what the SDK or the network threw onto a problem a person can be told about. */
export function classify(err: unknown): BucketError {
  if (err instanceof BucketError) return err;
  const e = (err ?? {}) as SdkErrorLike;
  const cause = (e.cause ?? {}) as SdkErrorLike;
  const name = e.Code ?? e.name ?? '';
  const netCode = e.code ?? cause.code ?? '';
  const status = e.$metadata?.httpStatusCode;
  const detail = [name, netCode, status].filter(Boolean).join(' ');
  const msg = e.message ?? String(err);
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'UND_ERR_SOCKET'].includes(netCode) || name === 'TimeoutError' || name === 'RequestTimeout')
    return new BucketError('unreachable', msg, detail);
  if (name === 'NoSuchBucket') return new BucketError('no_such_bucket', msg, detail);
  if (name === 'InvalidAccessKeyId' || name === 'SignatureDoesNotMatch' || name === 'InvalidToken' || name === 'Unauthorized') return new BucketError('wrong_key', msg, detail);
  if (name === 'RequestTimeTooSkewed') return new BucketError('clock_skew', msg, detail);
  if (name === 'AccessDenied' || status === 403) return new BucketError('no_permission', msg, detail);
  if (name === 'BadDigest' || name === 'InvalidDigest') return new BucketError('checksum_mismatch', msg, detail);
  if (status !== undefined && status >= 500) return new BucketError('bucket_error', msg, detail);
  if (status === 404 && !name) return new BucketError('no_such_bucket', msg, detail);
  if (status === undefined && !name) return new BucketError('unreachable', msg, detail);
  return new BucketError('unknown', msg, detail);
}

