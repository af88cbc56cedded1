import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import { MachineFailure } from './failures.js';
import { copyLimitMs, DEFAULT_STEP_LIMIT_MS, lowPriorityLimitMs, StepTimeoutError, tookTooLong } from './limits.js';
import { toolInstalled, ToolMissingError, type ToolName } from './tools.js';

export interface VideoTools {
  ffmpegPath: string;
  ffprobePath: string;
  /** Each step's time limit (PROCESSING_TIME_LIMIT_S); DEFAULT_STEP_LIMIT_MS when not given. */
  stepMs?: number;
}

const stepOf = (tools: VideoTools) => tools.stepMs ?? DEFAULT_STEP_LIMIT_MS;

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

/** Stops and continues a running tool (SIGSTOP/SIGCONT); its time limit does not run meanwhile. */
export interface Pausable {
  pause(): void;
  resume(): void;
}

export interface RunOptions {
  /** The step's limit: past it the tool is killed and the step fails with StepTimeoutError. */
  timeoutMs?: number;
  /** Kills the tool (the server is stopping). */
  signal?: AbortSignal;
  /** What the time-limit message calls the step (default: the command). */
  name?: string;
  /** Receives stdout as it comes instead of collecting it. */
  onOutput?: (chunk: Buffer) => void;
  /** Called once the tool runs, with its pause and resume. */
  onStart?: (p: Pausable) => void;
}

/** Runs a tool without a shell; resolves with stdout, rejects with the tail of stderr. */
export function run(cmd: string, args: string[], { timeoutMs = 10 * 60_000, signal, name = cmd, onOutput, onStart }: RunOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL' });
    const out: Buffer[] = [];
    let err = '';
    let timedOut = false;
    let ended = false;
    // The limit counts running time only: a paused tool keeps the rest of it.
    let left = timeoutMs;
    let since = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      since = Date.now();
      timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, Math.max(0, left));
    };
    arm();
    onStart?.({
      pause() {
        if (ended || !timer) return;
        clearTimeout(timer);
        timer = undefined;
        left -= Date.now() - since;
        child.kill('SIGSTOP');
      },
      resume() {
        if (ended || timer) return;
        child.kill('SIGCONT');
        arm();
      },
    });
    const finish = () => {
      ended = true;
      clearTimeout(timer);
    };
    child.stdout.on('data', (d: Buffer) => (onOutput ? onOutput(d) : out.push(d)));
    child.stderr.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-2000);
    });
    child.on('error', (e) => {
      finish();
      // A tool that cannot start (missing, or no descriptors left) says nothing about the file.
      reject(e.name === 'AbortError' ? e : new MachineFailure(`${cmd} could not be started: ${e.message}`));
    });
    child.on('close', (code, sig) => {
      finish();
      if (code === 0) resolve(Buffer.concat(out));
      else if (timedOut) reject(new StepTimeoutError(tookTooLong(name, timeoutMs)));
      else reject(new Error(`${name} failed (${sig ?? `exit ${code}`}): ${err.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

/**
 * Runs one of the processing tools: ToolMissingError when it is not installed (checked first,
 * since through `nice` a missing tool is only an exit code), else `run`, at the lowest CPU
 * priority when `nice`.
 */
export function runTool(tool: ToolName, toolPath: string, args: string[], opts: RunOptions & { nice?: boolean } = {}): Promise<Buffer> {
  if (!toolInstalled(toolPath)) return Promise.reject(new ToolMissingError(tool));
  const { nice, ...rest } = opts;
  const named = { name: tool, ...rest };
  return nice ? run('nice', ['-n', '19', toolPath, ...args], named) : run(toolPath, args, named);
}

const tag = (tags: Record<string, string> | undefined, ...names: string[]): string | null => {
  for (const n of names) {
    const v = tags?.[n]?.trim();
    if (v) return v.slice(0, 100);
  }
  return null;
};

export async function probeVideo(tools: VideoTools, file: string): Promise<VideoFacts> {
  const out = await runTool('ffprobe', tools.ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], { timeoutMs: stepOf(tools) });
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
  const args = ['-v', 'error', '-ss', String(atSeconds), '-i', file, '-frames:v', '1', '-an', ...vf, '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'];
  return runTool('ffmpeg', tools.ffmpegPath, args, { nice: true, timeoutMs: lowPriorityLimitMs(stepOf(tools)) });
}

/**
 * A public copy without any metadata (phones keep GPS and creation time in it), streams
 * copied, not re-encoded. MP4/MOV get the index at the front so playback starts at once.
 */
export async function strippedCopy(tools: VideoTools, input: string, output: string, container: 'mp4' | 'mov' | 'avi'): Promise<void> {
  const { size } = await fs.stat(input);
  const args = ['-v', 'error', '-y', '-i', input, '-map', '0:v:0', '-map', '0:a?', '-map_metadata', '-1', '-map_chapters', '-1', '-c', 'copy', '-fflags', '+bitexact'];
  if (container !== 'avi') args.push('-movflags', '+faststart', '-f', container);
  else args.push('-f', 'avi');
  args.push(output);
  await runTool('ffmpeg', tools.ffmpegPath, args, { timeoutMs: copyLimitMs(stepOf(tools), size) });
}
