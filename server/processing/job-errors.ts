import { AppError } from '../errors.js';
import { isMachineFailure } from './failures.js';
import { JobGoneError, QueueStoppedError } from './jobs.js';
import { ToolMissingError } from './tools.js';

export const noPhoto = () => new AppError('not_found', 'errors.photos.no_such_id');

export const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * A full disk or a tool that would not start is no fault of the photo: nothing is recorded on it,
 * the admin tries again later. A missing tool goes on as it is: the job waits for the tool.
 */
export function throwIfMachine(e: unknown): void {
  if (e instanceof ToolMissingError) throw e;
  if (isMachineFailure(e)) {
    throw new AppError('unavailable', 'errors.processing.short_of_resources', undefined, { retry_after: 60 });
  }
}

/** What a caller sees of a job that did not succeed: always an AppError. */
export function asAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof JobGoneError) return noPhoto();
  if (e instanceof QueueStoppedError) return new AppError('unavailable', 'errors.processing.stopping', undefined, { retry_after: 10 });
  if (e instanceof ToolMissingError) return new AppError('unavailable', 'errors.processing.waiting_for_tool', { tool: e.tool });
  // Processing errors are readable sentences about the file (in English, as processing writes them).
  const detail = messageOf(e);
  return detail ? new AppError('unprocessable', 'errors.processing.detail', { detail }) : new AppError('unprocessable', 'errors.processing.failed');
}
