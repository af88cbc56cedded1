import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { log } from '../log.js';
import { MediaError } from './failures.js';
import { PermanentJobError, QueueStoppedError } from './queue.js';
import type { AudioOps } from './worker-protocol.js';

/** What the guestbook does with a 'voice-copy' job: make the copy with `audio`, and record it. */
export interface VoiceCopyHandler {
  run(entryId: string, audio: AudioOps, signal: AbortSignal): Promise<void>;
  /** The job gave up (a broken file, or every attempt used). */
  failed(entryId: string, error: Error): Promise<void>;
}

/** Voice notes of the guestbook, as processing offers them. */
export interface VoiceNotes {
  /** Streams and real length of an audio file, read by the media worker while the request waits. */
  probe: AudioOps['probeAudio'];
  /** Queues the playable copy of message `entryId` (once per message), `within` the message's transaction. */
  enqueueCopy(entryId: string, within?: Kysely<DB>): Promise<void>;
  /** Sets who runs the copies; returns the function that unsets it. */
  handle(handler: VoiceCopyHandler): () => void;
}

/**
 * The 'voice-copy' jobs: like a video's web copy, made by ffmpeg at the lowest CPU priority in the
 * media worker, but in the ordinary lanes (a 2-minute voice note takes a second or two), so a
 * message never waits behind a long video. Stopping the server stops the encoder; the job runs
 * again after the next start.
 */
export function createVoiceNotes(audio: AudioOps, enqueue: (entryId: string, within?: Kysely<DB>) => Promise<void>) {
  let handler: VoiceCopyHandler | undefined;
  let stopping = new AbortController();
  const api: VoiceNotes = {
    probe: (file) => audio.probeAudio(file),
    enqueueCopy: enqueue,
    handle(h) {
      handler = h;
      return () => {
        if (handler === h) handler = undefined;
      };
    },
  };
  return {
    api,
    async run(entryId: string): Promise<void> {
      // No guestbook in this server (a tool or test without it): the job waits for one that has it.
      if (!handler) throw new QueueStoppedError('Nothing handles voice notes yet.');
      const signal = stopping.signal;
      try {
        await handler.run(entryId, audio, signal);
      } catch (e) {
        if (signal.aborted) throw new QueueStoppedError('The server is shutting down.');
        if (e instanceof MediaError) throw new PermanentJobError(e.message);
        throw e;
      }
    },
    async failed(entryId: string, error: Error): Promise<void> {
      await handler?.failed(entryId, error).catch((e) => log.warn(`Could not record the failure of voice note ${entryId}`, e));
    },
    start(): void {
      if (stopping.signal.aborted) stopping = new AbortController();
    },
    stop(): void {
      stopping.abort();
    },
  };
}
