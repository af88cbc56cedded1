import type { Config } from '../config.js';
import { log } from '../log.js';
import { HEIF_CONVERT, missingToolLog, missingTools, type ToolName, type ToolPaths } from './tools.js';

/** How often missing tools are looked for again: once installed, the files waiting for them go on without a restart. */
export const TOOL_CHECK_MS = 30_000;

/**
 * Missing tools are named at start (log, dashboard); files that need one wait for it (the queue
 * parks their jobs), and `onFound` lets them go on once it is installed.
 */
export function watchTools(config: Pick<Config, 'ffmpegPath' | 'ffprobePath'>, onFound: () => Promise<void>) {
  const toolPaths: ToolPaths = { ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath, 'heif-convert': HEIF_CONVERT };
  let missing: ToolName[] = [];
  let toolCheck: NodeJS.Timeout | undefined;
  const lookForTools = () => {
    const now = missingTools(toolPaths);
    const found = missing.filter((t) => !now.includes(t));
    missing = now;
    if (!found.length) return;
    log.info(`${found.join(' and ')} found: the files waiting for it are prepared now`);
    onFound().catch((e) => log.warn('Could not restart the files waiting for a tool', e));
  };
  return {
    /** The tools not installed, as of the last look. */
    missing: (): readonly ToolName[] => missing,
    start(): void {
      missing = missingTools(toolPaths);
      for (const t of missing) log.warn(missingToolLog(t));
      toolCheck = setInterval(lookForTools, TOOL_CHECK_MS).unref();
    },
    stop(): void {
      clearInterval(toolCheck);
    },
  };
}
