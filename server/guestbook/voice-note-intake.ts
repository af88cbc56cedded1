import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { VOICE_NOTE_MAX_BYTES, VOICE_NOTE_MAX_SECONDS } from '../../common/rules.js';
import type { Message, MessageValues } from '../../common/languages.js';
import { AppError } from '../errors.js';
import type { AudioFacts } from '../processing/audio.js';
import { isMachineFailure, MediaError } from '../processing/failures.js';
import { QueueStoppedError } from '../processing/queue.js';
import { pourIntoNewFile, type FileSink } from '../uploads/file-sink.js';
import { SNIFF_BYTES } from '../uploads/sniff.js';
import { newId } from '../uploads/store.js';
import type { FormFields, ReadForm } from '../uploads/streams.js';
import { codecFits, sniffAudio, type AudioType } from './audio-type.js';

/** Encoders pad a recording stopped at exactly two minutes by a few dozen milliseconds. */
const DURATION_SLACK_S = 1;

/** A voice note received and checked: in `tempPath` (synced), its type by magic bytes, its real length. */
export interface ReceivedVoiceNote {
  tempPath: string;
  size: number;
  sha256: string;
  type: AudioType;
  duration: number;
}

/** A refusal naming the form field at fault, so the page can put the sentence beside it. */
export const fieldError = (code: 'invalid_input' | 'too_large' | 'unsupported_type', field: string, sentence: string | Message, values?: MessageValues) =>
  new AppError(code, sentence, values, { field });

/** The refusal of a voice note over VOICE_NOTE_MAX_BYTES (also before a body declared too large is read). */
export const audioTooLarge = () => fieldError('too_large', 'audio', 'errors.guestbook.audio_too_large', { mb: VOICE_NOTE_MAX_BYTES / 1024 / 1024 });

/** The form of POST /api/guestbook: its text fields, and its `audio` part written to `tempPath` (or none). */
export async function readGuestbookForm(readForm: ReadForm, tempPath: string): Promise<{ fields: FormFields; sink?: FileSink; hash: crypto.Hash }> {
  const hash = crypto.createHash('sha256');
  let sink: FileSink | undefined;
  const { fields } = await readForm(async (file, _name, _before, body) => {
    // Written and synced as it arrives, like an upload's file.
    sink = await pourIntoNewFile(tempPath, file, { hash, limit: VOICE_NOTE_MAX_BYTES, tooLarge: audioTooLarge, body });
  });
  return { fields, sink, hash };
}

/** What the media worker reads of a file; its refusals as answers naming the audio field. */
export interface Probe {
  (file: string): Promise<AudioFacts>;
}

/**
 * Checks a received voice note: its magic bytes (else 415), what ffprobe finds in it (a sound
 * stream of the container's codec, no picture: else 415; unreadable: 400) and its length by its
 * own packets (over VOICE_NOTE_MAX_SECONDS: 400).
 */
export async function checkVoiceNote(tempPath: string, size: number, sha256: string, probe: Probe): Promise<ReceivedVoiceNote> {
  if (size === 0) throw fieldError('invalid_input', 'audio', 'errors.guestbook.audio_empty');
  const head = Buffer.alloc(SNIFF_BYTES);
  const handle = await fs.open(tempPath, 'r');
  const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0).finally(() => handle.close());
  const type = sniffAudio(head.subarray(0, bytesRead));
  if (!type) throw fieldError('unsupported_type', 'audio', 'errors.guestbook.audio_type');
  let facts: AudioFacts;
  try {
    facts = await probe(tempPath);
  } catch (e) {
    if (e instanceof MediaError) throw fieldError('invalid_input', 'audio', 'errors.guestbook.audio_unreadable');
    // ffprobe missing, the machine short of something, the server stopping: not the guest's fault.
    if (isMachineFailure(e) || e instanceof QueueStoppedError) throw new AppError('unavailable', 'errors.guestbook.audio_unavailable', undefined, { retry_after: 30, field: 'audio' });
    throw e;
  }
  if (facts.hasVideo) throw fieldError('unsupported_type', 'audio', 'errors.guestbook.audio_is_video');
  if (!codecFits(type, facts)) throw fieldError('unsupported_type', 'audio', 'errors.guestbook.audio_type');
  if (!facts.duration) throw fieldError('invalid_input', 'audio', 'errors.guestbook.audio_silent');
  if (facts.duration > VOICE_NOTE_MAX_SECONDS + DURATION_SLACK_S) throw fieldError('invalid_input', 'audio', 'errors.guestbook.audio_too_long', { minutes: VOICE_NOTE_MAX_SECONDS / 60 });
  return { tempPath, size, sha256, type, duration: facts.duration };
}

/** A temporary name for a voice note being received. */
export const incomingVoiceNote = (incoming: string) => path.join(incoming, `${newId()}.voice`);
