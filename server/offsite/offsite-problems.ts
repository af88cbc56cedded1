import type { BucketProblem } from './bucket.js';
import type { OffsiteSettings } from './offsite.config.js';

// Every key written whole: the catalogue check finds keys by their literal text.
export const PROBLEM_KEYS: Record<BucketProblem | 'not_configured', string> = {
  unreachable: 'offsite.problem.unreachable',
  no_such_bucket: 'offsite.problem.no_such_bucket',
  wrong_key: 'offsite.problem.wrong_key',
  no_permission: 'offsite.problem.no_permission',
  clock_skew: 'offsite.problem.clock_skew',
  bucket_error: 'offsite.problem.bucket_error',
  checksum_mismatch: 'offsite.problem.checksum_mismatch',
  unknown: 'offsite.problem.unknown',
  not_configured: 'offsite.problem.not_configured',
};

/** The sentence for a problem, as a catalogue message. */
export function problemMessage(problem: BucketProblem | 'not_configured', s: Pick<OffsiteSettings, 'bucket'>, detail?: string) {
  return { key: PROBLEM_KEYS[problem], values: { bucket: s.bucket, detail: detail ?? '' } };
}
