import { spawn } from 'node:child_process';
import { MachineFailure } from './failures.js';

export interface VideoTools {
  ffmpegPath: string;
  ffprobePath: string;
}

export interface VideoFacts {
  duration: number | null;
  /** As displayed (rotation applied). */
  width: number | null;
  height: number | null;
  /** Clockwise degrees a player turns the frames. */
  rotation: number;
  creationTime: string | null;
  cameraMake: string | null;
  cameraModel: string | null;
  /** What a browser needs to know to play it: codec names as ffprobe gives them ('h264', 'hevc', 'vp9'). */
  codec: string | null;
  pixFmt: string | null;
  /** Transfer characteristic: 'arib-std-b67' (HLG) and 'smpte2084' (PQ) are HDR. */
  transfer: string | null;
  primaries: string | null;
  matrix: string | null;
  /** null when the file has no audio. */
  audioCodec: string | null;
}

export interface RunOptions {
  timeoutMs?: number;
  /** Kills the tool (the server is stopping). */
  signal?: AbortSignal;
}

/** Runs a tool without a shell; resolves with stdout, rejects with the tail of stderr. */
export function run(cmd: string, args: string[], { timeoutMs = 10 * 60_000, signal }: RunOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' });
    const out: Buffer[] = [];
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      // A tool that cannot start (missing, or no descriptors left) says nothing about the file.
      reject(e.name === 'AbortError' ? e : new MachineFailure(`${cmd} could not be started: ${e.message}`));
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else if (timedOut) reject(new Error(`${cmd} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`));
      else reject(new Error(`${cmd} failed (${sig ?? `exit ${code}`}): ${err.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

const tag = (tags: Record<string, string> | undefined, ...names: string[]): string | null => {
  for (const n of names) {
    const v = tags?.[n]?.trim();
    if (v) return v.slice(0, 100);
  }
  return null;
};

export async function probeVideo(tools: VideoTools, file: string): Promise<VideoFacts> {
  const out = await run(tools.ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]);
  const info = JSON.parse(out.toString()) as {
    format?: { duration?: string; tags?: Record<string, string> };
    streams?: ({ codec_type?: string; codec_name?: string; pix_fmt?: string; width?: number; height?: number; duration?: string } & ColorTags & {
      tags?: Record<string, string>;
      side_data_list?: { rotation?: number }[];
      disposition?: { attached_pic?: number };
    })[];
  };
  // Cover art is a one-picture "video" stream: not the video.
  const video = info.streams?.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = info.streams?.find((s) => s.codec_type === 'audio');
  if (!video) throw new Error('The file has no video stream');
  const sideRotation = video.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const rotation = (((sideRotation !== undefined ? -sideRotation : Number(video.tags?.rotate ?? 0)) % 360) + 360) % 360;
  const swap = rotation === 90 || rotation === 270;
  const duration = Number(info.format?.duration ?? video.duration);
  const created = tag(info.format?.tags, 'com.apple.quicktime.creationdate', 'creation_time') ?? tag(video.tags, 'creation_time');
  const createdDate = created ? new Date(created) : null;
  return {
    duration: Number.isFinite(duration) ? Math.round(duration * 1000) / 1000 : null,
    width: (swap ? video.height : video.width) ?? null,
    height: (swap ? video.width : video.height) ?? null,
    rotation,
    creationTime: createdDate && !Number.isNaN(createdDate.getTime()) && createdDate.getFullYear() > 1970 ? createdDate.toISOString() : null,
    cameraMake: tag(info.format?.tags, 'com.apple.quicktime.make', 'com.android.manufacturer', 'make'),
    cameraModel: tag(info.format?.tags, 'com.apple.quicktime.model', 'com.android.model', 'model'),
    codec: video.codec_name ?? null,
    pixFmt: video.pix_fmt ?? null,
    transfer: video.color_transfer ?? null,
    primaries: video.color_primaries ?? null,
    matrix: video.color_space ?? null,
    audioCodec: audio?.codec_name ?? null,
  };
}

interface ColorTags {
  color_transfer?: string;
  color_primaries?: string;
  color_space?: string;
}

/**
 * One frame as PNG at `atSeconds`, upright (ffmpeg applies the rotation) and through `filters`
 * (the web copy's scaling and tone mapping, so the poster looks like the video plays). At the
 * lowest CPU priority, like the re-encode: decoding a 4K HDR frame must not slow the gallery.
 */
export function posterFrame(tools: VideoTools, file: string, atSeconds: number, filters?: string): Promise<Buffer> {
  const vf = filters ? ['-vf', filters] : [];
  return run('nice', ['-n', '19', tools.ffmpegPath, '-v', 'error', '-ss', String(atSeconds), '-i', file, '-frames:v', '1', '-an', ...vf, '-f', 'image2pipe', '-c:v', 'png', 'pipe:1']);
}

/**
 * A public copy without any metadata (phones keep GPS and creation time in it), streams
 * copied, not re-encoded. MP4/MOV get the index at the front so playback starts at once.
 */
export async function strippedCopy(tools: VideoTools, input: string, output: string, container: 'mp4' | 'mov' | 'avi'): Promise<void> {
  const args = ['-v', 'error', '-y', '-i', input, '-map', '0:v:0', '-map', '0:a?', '-map_metadata', '-1', '-map_chapters', '-1', '-c', 'copy', '-fflags', '+bitexact'];
  if (container !== 'avi') args.push('-movflags', '+faststart', '-f', container);
  else args.push('-f', 'avi');
  args.push(output);
  await run(tools.ffmpegPath, args);
}
