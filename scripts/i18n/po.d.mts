import type { PoEntry } from './catalogues.mjs';
export class PoError extends Error {
  file: string;
  line: number;
}
export function parsePo(source: string, file?: string): { header: Record<string, string>; entries: PoEntry[] };
export function formatPo(header: Record<string, string>, entries: Pick<PoEntry, 'key' | 'text' | 'comments' | 'flags'>[]): string;
