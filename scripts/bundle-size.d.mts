export const GUEST_LIMIT_BYTES: number;
export const LANGUAGE_LIMIT_BYTES: number;
export const ADMIN_LANGUAGE_LIMIT_BYTES: number;
export function languageLimit(part: string): number;
export interface BundleSizes {
  guestGzip: number;
  guestBrotli: number;
  allGzip: number;
  scripts: number;
  guestFiles: string[];
  languages: { file: string; lang: string; part: string; gzip: number }[];
}
export function measureBundles(root: string, dist?: string): BundleSizes;
export function formatSizes(m: BundleSizes): string;
