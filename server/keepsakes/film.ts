import fsp from 'node:fs/promises';
import path from 'node:path';
import { run, type RunOptions } from '../processing/ffmpeg.js';
import { ToolMissingError, toolInstalled } from '../processing/tools.js';
import { chapters, FILM_HEIGHT, FILM_WIDTH, filmPieces, FPS, timeline, XF, type Piece } from './film-timeline.js';
import { bestFile } from './fonts.js';
import type { FilmPlan, KeepsakeOutcome, MakeControl } from '../processing/keepsake-plan.js';

/** Pieces a segment renders in one ffmpeg run: memory stays that of a few pictures. */
const PER_SEGMENT = 8;
/**
 * The film's encoding: the video as the segments are written, the sound as it is mixed in at the end.
 * While the test suite runs (NODE_ENV=test, as scripts/test.mjs sets; like the passwords' hash
 * cost) x264 takes its fastest preset: the same graph, format and length, a third less CPU.
 */
const VIDEO_CODEC = ['-c:v', 'libx264', '-preset', process.env.NODE_ENV === 'test' ? 'ultrafast' : 'veryfast', '-crf', '20', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-r', String(FPS), '-g', String(FPS * 2)];
const AUDIO_CODEC = ['-c:a', 'aac', '-b:a', '192k', '-ar', '48000', '-ac', '2'];

/** A value in a filter graph: quoted, with the characters the graph and the option parser read escaped. */
const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "'\\\\\\''").replace(/:/g, '\\:')}'`;
const colour = (hex: string) => `0x${hex.replace('#', '')}`;

/** A metadata value in an ffmetadata file. */
const meta = (s: string) => s.replace(/[\\=;#\n]/g, (c) => (c === '\n' ? ' ' : `\\${c}`));

interface Job {
  plan: FilmPlan;
  ctl: MakeControl;
  /** Text files drawtext reads (no escaping of the couple's words in the graph). */
  texts: Map<string, string>;
}

async function textFile(job: Job, text: string): Promise<string> {
  let file = job.texts.get(text);
  if (!file) {
    file = path.join(job.plan.work, `text-${job.texts.size}.txt`);
    await fsp.writeFile(file, text);
    job.texts.set(text, file);
  }
  return file;
}

/** A card: the cover photo blurred behind (or the theme's colour), the names, a line under them, fading in. */
async function card(job: Job, p: Piece, input: number | null, lines: { text: string; face: 'serif' | 'sans'; size: number; y: number }[]): Promise<string> {
  const { plan } = job;
  const d = p.frames;
  const base =
    input === null
      ? `color=c=${colour(plan.colours.bg)}:s=${FILM_WIDTH}x${FILM_HEIGHT}:r=${FPS},trim=end_frame=${d},vignette=PI/5`
      : `[${input}:v]scale=${FILM_WIDTH}:${FILM_HEIGHT}:force_original_aspect_ratio=increase,crop=${FILM_WIDTH}:${FILM_HEIGHT},boxblur=24:3,eq=brightness=-0.22:saturation=0.8,` +
        `zoompan=z='1+0.04*on/${d}':x='(iw-iw/zoom)/2':y='(ih-ih/zoom)/2':d=${d}:s=${FILM_WIDTH}x${FILM_HEIGHT}:fps=${FPS}`;
  const ink = input === null ? colour(plan.colours.text) : 'white';
  const draws: string[] = [];
  for (const line of lines) {
    if (!line.text) continue;
    const font = bestFile(plan.fonts[line.face], line.text);
    if (!font) continue;
    draws.push(
      `drawtext=fontfile=${q(font)}:textfile=${q(await textFile(job, line.text))}:fontsize=${line.size}:fontcolor=${ink}:` +
        `x=(w-text_w)/2:y=${line.y}-text_h/2:alpha='min(1,t/1.2)'`,
    );
  }
  return [base, ...draws, 'setsar=1,format=yuv420p'].join(',');
}

/** A photo with a slow zoom (and a drift), on a soft blurred fill when its shape is not the film's: never stretched. */
function photoChain(p: Piece & { kind: 'photo' }, input: number, n: number): string {
  const d = p.frames;
  const { width, height } = p.item;
  const aspect = width / height;
  // A quarter larger than the film: room for the zoom, little to scale each frame.
  const W2 = FILM_WIDTH * 1.25;
  const H2 = FILM_HEIGHT * 1.25;
  const fills = aspect < 1.45 || aspect > 2.1;
  const still = fills
    ? `[${input}:v]split[a${n}][b${n}];[a${n}]scale=480:270:force_original_aspect_ratio=increase,crop=480:270,boxblur=16:2,eq=brightness=-0.1,scale=${W2}:${H2},setsar=1[bg${n}];` +
      `[b${n}]scale=${W2}:${H2}:force_original_aspect_ratio=decrease,setsar=1[fg${n}];[bg${n}][fg${n}]overlay=(W-w)/2:(H-h)/2`
    : `[${input}:v]scale=${W2}:${H2}:force_original_aspect_ratio=increase,crop=${W2}:${H2},setsar=1`;
  // Alternate: zoom in on the centre, zoom out drifting right, zoom in drifting up.
  const moves = [
    { z: `1+0.1*on/${d}`, x: `(iw-iw/zoom)/2`, y: `(ih-ih/zoom)/2` },
    { z: `1.1-0.1*on/${d}`, x: `(iw-iw/zoom)*(0.3+0.4*on/${d})`, y: `(ih-ih/zoom)/2` },
    { z: `1.04+0.08*on/${d}`, x: `(iw-iw/zoom)/2`, y: `(ih-ih/zoom)*(0.6-0.3*on/${d})` },
  ];
  const m = moves[n % moves.length];
  return `${still},zoompan=z='${m.z}':x='${m.x}':y='${m.y}':d=${d}:s=${FILM_WIDTH}x${FILM_HEIGHT}:fps=${FPS},setsar=1,format=yuv420p`;
}

/** A clip's best seconds: its frames fitted inside the film's on a blurred fill of themselves. */
function clipChain(p: Piece & { kind: 'clip' }, input: number, n: number): string {
  const d = p.frames;
  return (
    `[${input}:v]fps=${FPS},setpts=PTS-STARTPTS,split[a${n}][b${n}];[a${n}]scale=480:270:force_original_aspect_ratio=increase,crop=480:270,boxblur=16:2,eq=brightness=-0.1,scale=${FILM_WIDTH}:${FILM_HEIGHT},setsar=1[bg${n}];` +
    `[b${n}]scale=${FILM_WIDTH}:${FILM_HEIGHT}:force_original_aspect_ratio=decrease,setsar=1[fg${n}];[bg${n}][fg${n}]overlay=(W-w)/2:(H-h)/2:shortest=1,` +
    `tpad=stop_mode=clone:stop=${d},trim=end_frame=${d},setpts=PTS-STARTPTS,setsar=1,format=yuv420p`
  );
}

const inputOf = (p: Piece, plan: FilmPlan): string[] | null => {
  if (p.kind === 'photo') return ['-i', p.item.file];
  if (p.kind === 'clip') return ['-ss', String(p.start), '-t', String(p.frames / FPS + 0.5), '-i', p.item.file];
  return plan.cover ? ['-i', plan.cover] : null;
};

/** Ffmpeg's arguments and graph for some of the film, numbered from input `first`; `label` names its output, `count` its inputs. */
interface Part {
  inputs: string[];
  count: number;
  graph: string[];
  label: string;
}

/**
 * Pieces `from`..`to` cross-faded into one another. A segment (from > 0 or to short of the end)
 * leaves out the first XF frames of its first piece, which went into the previous segment's last
 * fade, and ends with the fade into the first XF frames of the piece after it, so the segments
 * join with plain concatenation; from the first piece to the last it is the whole film.
 */
async function videoGraph(job: Job, pieces: Piece[], from: number, to: number): Promise<Part & { frames: number }> {
  const { plan } = job;
  const inputs: string[] = [];
  const graph: string[] = [];
  let count = 0;
  const labels: { label: string; frames: number }[] = [];
  const last = Math.min(to + 1, pieces.length - 1);
  for (let i = from; i <= last; i++) {
    const p = pieces[i];
    const inArgs = inputOf(p, plan);
    let input: number | null = null;
    if (inArgs) {
      inputs.push(...inArgs);
      input = count++;
    }
    let chain: string;
    if (p.kind === 'title') chain = await card(job, p, input, [{ text: plan.names, face: 'serif', size: 112, y: 470 }, { text: plan.date, face: 'sans', size: 46, y: 640 }]);
    else if (p.kind === 'closing') chain = await card(job, p, input, [{ text: plan.closing, face: 'serif', size: 84, y: 470 }, { text: plan.names, face: 'sans', size: 46, y: 620 }]);
    else if (p.kind === 'photo') chain = photoChain(p, input!, i);
    else chain = clipChain(p as Piece & { kind: 'clip' }, input!, i);
    let frames = p.frames;
    if (i === from && from > 0) {
      chain += `,trim=start_frame=${XF},setpts=PTS-STARTPTS`;
      frames -= XF;
    }
    if (i === to + 1) {
      chain += `,trim=end_frame=${XF},setpts=PTS-STARTPTS`;
      frames = XF;
    }
    graph.push(`${chain}[p${i}]`);
    labels.push({ label: `p${i}`, frames });
  }
  let cur = labels[0];
  for (let k = 1; k < labels.length; k++) {
    const next = labels[k];
    const out = `x${k}`;
    graph.push(`[${cur.label}][${next.label}]xfade=transition=fade:duration=${XF / FPS}:offset=${(cur.frames - XF) / FPS}[${out}]`);
    cur = { label: out, frames: cur.frames + next.frames - XF };
  }
  return { inputs, count, graph, label: cur.label, frames: cur.frames };
}

/** One segment of the film (see videoGraph), encoded to `file`; its frames. */
async function renderSegment(job: Job, pieces: Piece[], from: number, to: number, file: string, onFrames: (frames: number) => void): Promise<number> {
  const v = await videoGraph(job, pieces, from, to);
  const args = ['-v', 'error', '-nostdin', '-y', ...v.inputs, '-filter_complex', v.graph.join(';'), '-map', `[${v.label}]`, '-frames:v', String(v.frames), ...VIDEO_CODEC, '-an'];
  args.push('-progress', 'pipe:1', '-nostats', '-f', 'mpegts', file);
  let buffered = '';
  const onOutput = (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('frame=')) onFrames(Number(line.slice(6)) || 0);
  };
  // Stopped rather than paused when uploads come first: paused, a segment's ffmpeg would keep its
  // memory (631 MiB for eight pieces at 1080p) all the while, memory the server's reads then lack.
  const stop = new AbortController();
  const signal = job.ctl.signal ? AbortSignal.any([job.ctl.signal, stop.signal]) : stop.signal;
  try {
    await ffmpeg(job, args, 120_000 + v.frames * 400, onOutput, { signal, onStart: () => job.ctl.onTool?.({ pause: () => stop.abort(), resume: () => undefined }) });
  } catch (e) {
    if (stop.signal.aborted && !job.ctl.signal?.aborted) throw new Yielded();
    throw e;
  }
  return v.frames;
}

/** A segment stopped to let other work go first; it is made again from its start. */
class Yielded extends Error {}

function ffmpeg(job: Job, args: string[], timeoutMs: number, onOutput?: (chunk: Buffer) => void, own?: Pick<RunOptions, 'signal' | 'onStart'>): Promise<Buffer> {
  const { plan, ctl } = job;
  if (!toolInstalled(plan.ffmpegPath)) return Promise.reject(new ToolMissingError('ffmpeg'));
  return run('nice', ['-n', '19', plan.ffmpegPath, ...args], { name: 'ffmpeg', timeoutMs, signal: ctl.signal, onOutput, onStart: (t) => ctl.onTool?.(t), ...own });
}

async function hasAudio(job: Job, file: string): Promise<boolean> {
  const { plan, ctl } = job;
  const out = await run(plan.ffprobePath, ['-v', 'error', '-select_streams', 'a', '-show_entries', 'stream=index', '-of', 'csv=p=0', file], { timeoutMs: 30_000, signal: ctl.signal }).catch(() => Buffer.from(''));
  ctl.signal?.throwIfAborted();
  return out.toString().trim().length > 0;
}

/**
 * The sound, inputs numbered from `first`: silence the film's length, the couple's track looped
 * under it all, each clip's own sound at its place (lowered under the music), faded out at the end.
 */
async function soundGraph(job: Job, pieces: Piece[], starts: number[], seconds: number, first: number): Promise<Part> {
  const { plan } = job;
  const inputs: string[] = [];
  const graph: string[] = [`anullsrc=r=48000:cl=stereo,atrim=end=${seconds}[silence]`];
  const mix = ['[silence]'];
  let n = first;
  if (plan.music) {
    inputs.push('-stream_loop', '-1', '-i', plan.music);
    graph.push(`[${n++}:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,atrim=end=${seconds},asetpts=N/SR/TB,afade=t=in:d=1.5,volume=0.8[music]`);
    mix.push('[music]');
  }
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i];
    if (p.kind !== 'clip' || !(await hasAudio(job, p.item.file))) continue;
    const len = p.frames / FPS;
    inputs.push('-ss', String(p.start), '-t', String(len), '-i', p.item.file);
    const at = Math.round((starts[i] / FPS) * 1000);
    graph.push(
      `[${n++}:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo,asetpts=PTS-STARTPTS,afade=t=in:d=0.4,afade=t=out:st=${Math.max(0, len - 0.6)}:d=0.6,` +
        `volume=${plan.music ? 0.3 : 1},adelay=${at}|${at}[c${i}]`,
    );
    mix.push(`[c${i}]`);
  }
  const fadeOut = Math.min(4, seconds / 4);
  graph.push(`${mix.join('')}amix=inputs=${mix.length}:duration=first:normalize=0,afade=t=out:st=${seconds - fadeOut}:d=${fadeOut}[aout]`);
  return { inputs, count: n - first, graph, label: 'aout' };
}

/** The chapters as an ffmetadata file (an input of its own), and the film's title. */
async function chapterFile(job: Job, pieces: Piece[], starts: number[], total: number): Promise<string> {
  const { plan } = job;
  const file = path.join(plan.work, 'chapters.txt');
  const marks = chapters(plan, pieces, starts, total);
  await fsp.writeFile(file, `;FFMETADATA1\ntitle=${meta(plan.title)}\n` + marks.map((c) => `[CHAPTER]\nTIMEBASE=1/${FPS}\nSTART=${c.start}\nEND=${c.end}\ntitle=${meta(c.title)}\n`).join(''));
  return file;
}

/** The last arguments of the film's file: the chapters from input `metaIn`, the sound encoded, the index first. */
const finish = (metaIn: number, seconds: number, output: string) => [
  '-map_metadata', String(metaIn), '-map_chapters', String(metaIn), ...AUDIO_CODEC, '-t', String(seconds), '-movflags', '+faststart', '-f', 'mp4', output,
];

/**
 * The highlight film: H.264 + AAC, 1920x1080 at 30 fps, index first (faststart). Rendered in
 * segments (progress is real, memory that of one segment, a cancel stops it between two frames),
 * joined, then the music and the clips' sound are mixed under it and a chapter per moment is written.
 */
export async function makeFilm(plan: FilmPlan, ctl: MakeControl): Promise<KeepsakeOutcome> {
  await fsp.mkdir(plan.work, { recursive: true });
  const job: Job = { plan, ctl, texts: new Map() };
  const pieces = filmPieces(plan);
  const { starts, total } = timeline(pieces);
  const part = `${plan.output}.part.mp4`;
  try {
    const segments: string[] = [];
    let doneFrames = 0;
    for (let from = 0, n = 0; from < pieces.length; from += PER_SEGMENT, n++) {
      await ctl.turn();
      ctl.signal?.throwIfAborted();
      const to = Math.min(from + PER_SEGMENT - 1, pieces.length - 1);
      const file = path.join(plan.work, `segment-${String(n).padStart(4, '0')}.ts`);
      const base = doneFrames;
      let frames = 0;
      for (;;) {
        try {
          frames = await renderSegment(job, pieces, from, to, file, (f) => ctl.progress(Math.min(95, Math.floor(((base + f) / total) * 95))));
          break;
        } catch (e) {
          if (!(e instanceof Yielded)) throw e;
          await ctl.turn(); // until other work is done
          ctl.signal?.throwIfAborted();
        }
      }
      doneFrames += frames;
      segments.push(file);
      ctl.progress(Math.min(95, Math.floor((doneFrames / total) * 95)));
    }
    await ctl.turn();
    ctl.signal?.throwIfAborted();
    const seconds = total / FPS;
    const list = path.join(plan.work, 'segments.txt');
    await fsp.writeFile(list, segments.map((s) => `file '${s.replace(/'/g, "'\\''")}'`).join('\n') + '\n');
    const sound = await soundGraph(job, pieces, starts, seconds, 1);
    const args = ['-v', 'error', '-nostdin', '-y', '-f', 'concat', '-safe', '0', '-i', list, ...sound.inputs, '-f', 'ffmetadata', '-i', await chapterFile(job, pieces, starts, total)];
    args.push('-filter_complex', sound.graph.join(';'), '-map', '0:v', '-map', `[${sound.label}]`, '-c:v', 'copy', ...finish(1 + sound.count, seconds, part));
    await ffmpeg(job, args, 300_000 + total * 50);
    await fsp.rename(part, plan.output);
    ctl.progress(100);
    return { bytes: (await fsp.stat(plan.output)).size, seconds };
  } finally {
    await fsp.rm(part, { force: true });
    await fsp.rm(plan.work, { recursive: true, force: true });
  }
}

/**
 * The same film as one plain ffmpeg command: every piece's chain, every cross-fade and the sound in
 * one graph, encoded as makeFilm encodes (bench:keepsakes times it against makeFilm). Writes the
 * text files and the chapters it reads into plan.work; answers ffmpeg's arguments.
 */
export async function filmInOneCommand(plan: FilmPlan, output: string): Promise<string[]> {
  await fsp.mkdir(plan.work, { recursive: true });
  const job: Job = { plan, ctl: { progress: () => undefined, turn: async () => undefined }, texts: new Map() };
  const pieces = filmPieces(plan);
  const { starts, total } = timeline(pieces);
  const video = await videoGraph(job, pieces, 0, pieces.length - 1);
  const sound = await soundGraph(job, pieces, starts, total / FPS, video.count);
  const marks = await chapterFile(job, pieces, starts, total);
  return [
    ...['-v', 'error', '-nostdin', '-y', ...video.inputs, ...sound.inputs, '-f', 'ffmetadata', '-i', marks],
    ...['-filter_complex', [...video.graph, ...sound.graph].join(';'), '-map', `[${video.label}]`, '-map', `[${sound.label}]`, '-frames:v', String(total), ...VIDEO_CODEC],
    ...finish(video.count + sound.count, total / FPS, output),
  ];
}
