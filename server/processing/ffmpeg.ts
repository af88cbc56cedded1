import { spawn } from 'node:child_process';

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
}

/** Runs a tool without a shell; resolves with stdout, rejects with the tail of stderr. */
function run(cmd: string, args: string[], timeoutMs = 10 * 60_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} could not be started: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${cmd} failed (${signal ?? `exit ${code}`}): ${err.trim().split('\n').slice(-3).join(' | ')}`));
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
    streams?: { codec_type?: string; width?: number; height?: number; duration?: string; tags?: Record<string, string>; side_data_list?: { rotation?: number }[] }[];
  };
  const video = info.streams?.find((s) => s.codec_type === 'video');
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
  };
}

/** One frame as PNG (upright: ffmpeg applies the rotation), at `atSeconds`. */
export function posterFrame(tools: VideoTools, file: string, atSeconds: number): Promise<Buffer> {
  return run(tools.ffmpegPath, ['-v', 'error', '-ss', String(atSeconds), '-i', file, '-frames:v', '1', '-an', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1']);
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
