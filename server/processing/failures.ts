import { ToolMissingError } from './tools.js';
/**
 * A failure of the machine rather than of the file: a tool that could not be started, or one
 * of the conditions below. Such a job is retried later; the file is not marked broken.
 */
export class MachineFailure extends Error {}

/** Why a file could not be turned into derivatives, in words an admin can read. */
export class MediaError extends Error {}

/** Error codes of the machine running short (disk, quota, descriptors, memory) or SQLite failing to write. */
const MACHINE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EMFILE', 'ENFILE', 'ENOMEM', 'EAGAIN', 'SQLITE_FULL', 'SQLITE_BUSY', 'SQLITE_LOCKED']);
/** The same conditions as native tools (libvips, ffmpeg) word them in their messages. */
const MACHINE_WORDS = /No space left on device|Disk quota exceeded|Too many open files|Cannot allocate memory|database or disk is full/i;

/** True when `e` (or what it wraps) is a machine failure rather than a problem with the file. */
export function isMachineFailure(e: unknown): boolean {
  for (let cur = e, depth = 0; cur instanceof Error && depth < 5; cur = cur.cause, depth++) {
    if (cur instanceof MachineFailure) return true;
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && (MACHINE_CODES.has(code) || code.startsWith('SQLITE_IOERR'))) return true;
    if (MACHINE_WORDS.test(cur.message)) return true;
  }
  return false;
}

/** The tool (ffmpeg, ffprobe, heif-convert) that is not installed, when that is why `e` happened; else null. */
export function missingTool(e: unknown): string | null {
  for (let cur = e, depth = 0; cur instanceof Error && depth < 5; cur = cur.cause, depth++) {
    if (cur instanceof ToolMissingError) return cur.tool;
    const m = /^(\S+) could not be started: .*\bENOENT\b/.exec(cur.message);
    if (m) return m[1].split('/').pop() ?? m[1];
  }
  return null;
}
