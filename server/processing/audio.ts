import fs from 'node:fs/promises';
import { isMachineFailure, MediaError } from './failures.js';
import { run, type RunOptions, type VideoTools } from './ffmpeg.js';

/** What ffprobe says of a voice note: enough to accept or refuse it and to make its playable copy. */
export interface AudioFacts {
  /** The container as ffprobe names it: 'matroska,webm', 'ogg', 'mov,mp4,m4a,3gp,3g2,mj2', 'wav'. */
  format: string | null;
  /** The first audio stream's codec ('opus', 'aac', 'pcm_s16le'); null when the file has no sound. */
  codec: string | null;
  channels: number | null;
  /** A picture stream other than cover art: a video, not a voice note. */
  hasVideo: boolean;
  /** Seconds until the end of the last audio packet (what plays, whatever the header claims); null without packets. */
  duration: number | null;
}

const PROBE_TIMEOUT_MS = 30_000;

/** Reads a voice note's streams and its real length (from its packets: MediaRecorder's WebM has no duration in its header). */
export async function probeAudio(tools: VideoTools, file: string, o: RunOptions = {}): Promise<AudioFacts> {
  const opts = { timeoutMs: PROBE_TIMEOUT_MS, ...o };
  let info: {
    format?: { format_name?: string };
    streams?: { codec_type?: string; codec_name?: string; channels?: number; disposition?: { attached_pic?: number } }[];
  };
  let packets: string;
  try {
    info = JSON.parse((await run(tools.ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], opts)).toString());
    packets = (await run(tools.ffprobePath, ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'packet=pts_time,duration_time', '-of', 'csv=p=0', file], opts)).toString();
  } catch (e) {
    if (isMachineFailure(e) || (e as Error)?.name === 'AbortError') throw e;
    throw new MediaError('The voice note could not be read.');
  }
  const audio = info.streams?.find((s) => s.codec_type === 'audio');
  let end: number | null = null;
  for (const line of packets.split('\n')) {
    const [pts, dur] = line.split(',').map(Number);
    if (!Number.isFinite(pts)) continue;
    end = Math.max(end ?? 0, pts + (Number.isFinite(dur) ? dur : 0));
  }
  return {
    format: info.format?.format_name ?? null,
    codec: audio?.codec_name ?? null,
    channels: audio?.channels ?? null,
    hasVideo: !!info.streams?.some((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1),
    duration: end === null ? null : Math.round(end * 1000) / 1000,
  };
}

/** AAC in MP4 already: the copy only drops metadata and moves the index to the front. */
const playsAsIs = (f: AudioFacts) => f.codec === 'aac' && (f.format ?? '').includes('mp4');

/**
 * Writes the copy of a voice note that every current browser plays: AAC in MP4 (an .m4a), index
 * first, without metadata. Encoded at the lowest CPU priority like a video's web copy, with a time
 * limit in proportion to its length; written under a temporary name, so `output` is always whole.
 * Returns its size in bytes.
 */
export async function writeAudioWebCopy(tools: VideoTools, input: string, output: string, f: AudioFacts, signal?: AbortSignal): Promise<number> {
  const part = `${output}.part`;
  const stereo = (f.channels ?? 1) > 1;
  const codec = playsAsIs(f) ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', stereo ? '128k' : '64k', '-ac', stereo ? '2' : '1'];
  const args = ['-v', 'error', '-y', '-i', input, '-map', '0:a:0', '-vn', '-sn', '-dn', '-map_metadata', '-1', '-map_chapters', '-1', ...codec, '-movflags', '+faststart', '-f', 'mp4', part];
  try {
    await run('nice', ['-n', '19', tools.ffmpegPath, ...args], { timeoutMs: (60 + 10 * (f.duration ?? 120)) * 1000, signal });
    await fs.rename(part, output);
    return (await fs.stat(output)).size;
  } catch (e) {
    if (signal?.aborted || isMachineFailure(e)) throw e;
    throw new MediaError(`The voice note could not be prepared for playing: ${e instanceof Error ? e.message : String(e)}`);
  } finally {
    await fs.rm(part, { force: true });
  }
}
