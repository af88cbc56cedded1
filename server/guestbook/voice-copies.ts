import fs from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths } from '../context.js';
import { resolveStored } from '../photos/photo-files.js';
import { MediaError } from '../processing/failures.js';
import type { VoiceCopyHandler } from '../processing/voice-notes.js';
import type { GuestbookRepo } from './guestbook.repo.js';

/**
 * Makes the copy of a voice note every browser plays (DATA_DIR/media/guestbook/<id>.play.m4a)
 * when processing runs its job, records it, and tells `onReady` (auto-moderation). A message
 * deleted while its copy was made leaves nothing behind.
 */
export function voiceCopyHandler(d: { paths: DataPaths; repo: GuestbookRepo; onReady(id: string): Promise<void> }): VoiceCopyHandler {
  return {
    async run(id, audio, signal) {
      const row = await d.repo.get(id);
      if (!row?.audio_path || row.audio_status === 'complete') return;
      const input = resolveStored(d.paths, row.audio_path);
      if (!input) throw new MediaError('The voice note is not where it was stored.');
      const output = path.join(d.paths.guestbook, `${id}.play.m4a`);
      const facts = await audio.probeAudio(input);
      const size = await audio.audioCopy(input, output, facts, signal);
      const kept = await d.repo.updateAudio(id, {
        web_audio_path: path.relative(d.paths.root, output),
        web_audio_size: size,
        audio_status: 'complete',
        audio_error: null,
      });
      if (!kept) return void (await fs.rm(output, { force: true }));
      await d.onReady(id);
    },
    async failed(id, error) {
      await d.repo.updateAudio(id, { audio_status: 'error', audio_error: error.message.slice(0, 500) });
    },
  };
}
