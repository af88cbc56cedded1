import fs from 'node:fs';
import path from 'node:path';
import type { ToolName } from '../../common/api-types.js';

export type { ToolName };

/** Debian's libheif command-line decoder (package libheif-examples). */
export const HEIF_CONVERT = 'heif-convert';

/** Types sharp's prebuilt libvips cannot decode (it has libheif with AV1 only, no HEVC). */
export const needsHeifDecoder = (contentType: string) => contentType === 'image/heic' || contentType === 'image/heif';

/** The tools a file of this type cannot be prepared without. */
export function toolsNeededBy(contentType: string): ToolName[] {
  if (contentType.startsWith('video/')) return ['ffmpeg', 'ffprobe'];
  return needsHeifDecoder(contentType) ? ['heif-convert'] : [];
}

/**
 * A tool that is not installed: no fault of the file, and retrying will not help until it is
 * there. The job waits (the queue parks it) and admins are told which tool is missing.
 */
export class ToolMissingError extends Error {
  constructor(readonly tool: ToolName) {
    super(`Waiting for ${tool}: it is not installed`);
  }
}

/** Whether `cmd` (a name looked up on PATH, or a path) is an executable file. */
export function toolInstalled(cmd: string): boolean {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const candidates = cmd.includes('/') ? [cmd] : dirs.map((d) => path.join(d, cmd));
  return candidates.some((p) => {
    try {
      fs.accessSync(p, fs.constants.X_OK);
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  });
}

/** Where each tool is looked for: FFMPEG_PATH, FFPROBE_PATH, heif-convert on the PATH. */
export type ToolPaths = Record<ToolName, string>;

export const TOOL_NAMES: readonly ToolName[] = ['ffmpeg', 'ffprobe', 'heif-convert'];

export function missingTools(paths: ToolPaths): ToolName[] {
  return TOOL_NAMES.filter((t) => !toolInstalled(paths[t]));
}

/** The operator's log line for a missing tool (the admin panel words it in its own texts). */
export function missingToolLog(tool: ToolName): string {
  const what = tool === 'heif-convert' ? 'iPhone photos (HEIC)' : 'Videos';
  const pkg = tool === 'heif-convert' ? 'libheif-examples' : 'ffmpeg';
  return `${what} cannot be prepared: ${tool} is not installed. Files that need it wait; install it (Debian: apt-get install ${pkg}) and restart the site.`;
}
