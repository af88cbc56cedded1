import fs from 'node:fs/promises';
import { runTool, strippedCopy, type Pausable, type VideoFacts, type VideoTools } from './ffmpeg.js';
import { DEFAULT_STEP_LIMIT_MS, encodeLimitMs } from './limits.js';

/** Long side of a video's web copy (the display image's size, too). */
export const WEB_VIDEO_PX = 1920;

const HDR_TRANSFERS = new Set(['arib-std-b67', 'smpte2084']);
const PLAIN_PIX_FMTS = new Set(['yuv420p', 'yuvj420p']);

export const isHdr = (f: Pick<VideoFacts, 'transfer'>) => f.transfer !== null && HDR_TRANSFERS.has(f.transfer);

/**
 * Whether the original already plays in every current browser as it is: H.264 8-bit 4:2:0,
 * SDR, no rotation to apply, within the size, AAC or no audio. Then the web copy is the same
 * streams in an MP4 without metadata; otherwise it is re-encoded.
 */
export function playsAsIs(f: VideoFacts): boolean {
  const long = Math.max(f.width ?? Infinity, f.height ?? Infinity);
  return (
    f.codec === 'h264' &&
    f.pixFmt !== null &&
    PLAIN_PIX_FMTS.has(f.pixFmt) &&
    !isHdr(f) &&
    f.rotation === 0 &&
    long <= WEB_VIDEO_PX &&
    (f.audioCodec === null || f.audioCodec === 'aac')
  );
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** Displayed size of the web copy: the long side at most WEB_VIDEO_PX, both sides even (4:2:0 needs it). */
export function webSize(f: Pick<VideoFacts, 'width' | 'height'>): { width: number; height: number } | null {
  if (!f.width || !f.height) return null;
  const k = Math.min(1, WEB_VIDEO_PX / Math.max(f.width, f.height));
  return { width: even(f.width * k), height: even(f.height * k) };
}

/**
 * The filter chain after ffmpeg's own rotation (it turns the frames before any filter and drops
 * the rotation tag): scale first (cheaper tone mapping), then HLG/PQ to BT.709 SDR with zscale
 * and tonemap, then 8-bit 4:2:0.
 */
export function webFilters(f: VideoFacts): string {
  const chain: string[] = [];
  const size = webSize(f);
  if (size && (size.width !== f.width || size.height !== f.height)) chain.push(`scale=${size.width}:${size.height}`);
  if (isHdr(f)) {
    const pin = f.primaries && f.primaries !== 'unknown' ? f.primaries : 'bt2020';
    const min = f.matrix && f.matrix !== 'unknown' ? f.matrix : 'bt2020nc';
    chain.push(
      `zscale=tin=${f.transfer}:pin=${pin}:min=${min}:t=linear:npl=100`,
      'format=gbrpf32le',
      'zscale=p=bt709',
      'tonemap=tonemap=hable:desat=0',
      'zscale=t=bt709:m=bt709:r=tv',
    );
  }
  chain.push('format=yuv420p');
  return chain.join(',');
}

/**
 * How long an encode may run before it is stopped: generous (the encoder runs at the lowest
 * priority, so a busy machine slows it) but bounded, in proportion to the clip's length. Time
 * spent paused (a shorter clip went first) does not count.
 */
export function encodeTimeLimitMs(duration: number | null, stepMs = DEFAULT_STEP_LIMIT_MS): number {
  return encodeLimitMs(stepMs, duration);
}

export interface WebCopyOptions {
  signal?: AbortSignal;
  /** Runs the encoder through `nice -n 19` (false only for measuring the encoder alone). */
  nice?: boolean;
  /** The running encoder's pause and resume (the encode lane lets a shorter clip go first). */
  onStart?: (p: Pausable) => void;
  /** Seconds of the video encoded so far, as ffmpeg reports them. */
  onProgress?: (seconds: number) => void;
}

/** Reads ffmpeg's `-progress` lines (out_time_us=…) into seconds encoded. */
function progressReader(report: (seconds: number) => void): (chunk: Buffer) => void {
  let rest = '';
  return (chunk) => {
    const lines = (rest + chunk.toString('latin1')).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^out_time_us=(\d+)/.exec(line);
      if (m) report(Number(m[1]) / 1e6);
    }
  };
}

/** The ffmpeg arguments of a re-encoded web copy (shared with the benchmark's plain-ffmpeg baseline). */
export function encodeArgs(input: string, output: string, f: VideoFacts): string[] {
  const hdrTags = isHdr(f) ? ['-color_primaries', 'bt709', '-color_trc', 'bt709', '-colorspace', 'bt709'] : [];
  const audio = f.audioCodec === null ? [] : f.audioCodec === 'aac' ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '160k', '-ac', '2'];
  return [
    '-v', 'error', '-y', '-i', input,
    '-map', '0:v:0', '-map', '0:a:0?', '-map_metadata', '-1', '-map_chapters', '-1', '-sn', '-dn',
    '-vf', webFilters(f),
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'high', ...hdrTags,
    ...audio,
    '-movflags', '+faststart', '-f', 'mp4', output,
  ];
}

/**
 * Writes the web copy to `output` (an MP4): the streams as they are when the original already
 * plays everywhere, else re-encoded at the lowest CPU priority with a time limit. Written under a
 * temporary name and renamed, so `output` is always whole.
 */
export async function writeWebCopy(tools: VideoTools, input: string, output: string, f: VideoFacts, o: WebCopyOptions = {}): Promise<'copied' | 'encoded'> {
  const part = `${output}.part`;
  try {
    if (playsAsIs(f)) {
      await strippedCopy(tools, input, part, 'mp4');
    } else {
      const progress = ['-progress', 'pipe:1', '-nostats'];
      await runTool('ffmpeg', tools.ffmpegPath, [...progress, ...encodeArgs(input, part, f)], {
        nice: o.nice !== false,
        timeoutMs: encodeTimeLimitMs(f.duration, tools.stepMs),
        signal: o.signal,
        onStart: o.onStart,
        onOutput: o.onProgress ? progressReader(o.onProgress) : () => undefined,
      });
    }
    await fs.rename(part, output);
    return playsAsIs(f) ? 'copied' : 'encoded';
  } finally {
    await fs.rm(part, { force: true });
  }
}
