import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { TestClient } from './server.js';
import { tempDir } from './temp.js';

export type Answer = { status: number; body: any; headers: Headers };

/** Voice notes as phones and browsers send them, made by ffmpeg from a tone. */
export type AudioKind = 'webm' | 'ogg' | 'm4a' | 'wav' | 'mp4-video' | 'webm-video';

const CODEC: Record<AudioKind, string[]> = {
  webm: ['-c:a', 'libopus', '-f', 'webm'],
  ogg: ['-c:a', 'libopus', '-f', 'ogg'],
  m4a: ['-c:a', 'aac', '-f', 'ipod'],
  wav: ['-c:a', 'pcm_s16le', '-f', 'wav'],
  'mp4-video': ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-f', 'mp4'],
  'webm-video': ['-c:v', 'libvpx', '-deadline', 'realtime', '-c:a', 'libopus', '-f', 'webm'],
};

let dir: string | undefined;
const made = new Map<string, Buffer>();

/** A `seconds`-long tone in the given container (cached per test file); `rate` lowers a WAV's size. */
export function makeAudio(kind: AudioKind, seconds: number, rate = 48000): Buffer {
  const key = `${kind}:${seconds}:${rate}`;
  const known = made.get(key);
  if (known) return known;
  dir ??= tempDir('wedding-audio-');
  const out = path.join(dir, `${kind}-${seconds}-${rate}`);
  const video = kind.endsWith('-video') ? ['-f', 'lavfi', '-i', `testsrc=size=160x120:rate=10:duration=${seconds}`] : [];
  execFileSync('ffmpeg', ['-v', 'error', '-y', ...video, '-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=${rate}:duration=${seconds}`, '-ac', '1', ...CODEC[kind], out]);
  const data = fs.readFileSync(out);
  made.set(key, data);
  return data;
}

/** What ffprobe says of bytes: the container and the first audio stream's codec. */
export function probe(data: Buffer): { format: string; codec: string; duration: number } {
  dir ??= tempDir('wedding-audio-');
  const file = path.join(dir, `probe-${Math.random().toString(36).slice(2)}`);
  fs.writeFileSync(file, data);
  const out = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]).toString());
  fs.rmSync(file);
  const audio = out.streams.find((s: any) => s.codec_type === 'audio');
  return { format: out.format.format_name, codec: audio?.codec_name, duration: Number(out.format.duration) };
}

export interface GuestbookForm {
  message?: string;
  name?: string;
  audio?: Buffer;
  audioName?: string;
  /** Fields after the audio part (browsers keep the order they were appended in). */
  fieldsLast?: boolean;
}

/** POST /api/guestbook from this guest's browser. */
export async function postMessage(c: TestClient, f: GuestbookForm, headers: Record<string, string> = {}): Promise<Answer> {
  const form = new FormData();
  const fields = () => {
    if (f.message !== undefined) form.append('message', f.message);
    if (f.name !== undefined) form.append('name', f.name);
  };
  if (!f.fieldsLast) fields();
  if (f.audio) form.append('audio', new Blob([new Uint8Array(f.audio)]), f.audioName ?? 'voice-note');
  if (f.fieldsLast) fields();
  const res = await c.fetch('/api/guestbook', { method: 'POST', body: form, headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers };
}

/** Waits until the message's voice note is no longer being prepared (as its guest sees it). */
export async function voiceReady(c: TestClient, id: string, ms = 60_000): Promise<any> {
  const deadline = Date.now() + ms;
  for (;;) {
    const mine = (await c.get('/api/my/guestbook?limit=100')).body.entries as any[];
    const e = mine.find((x) => x.id === id);
    if (e && e.audio_status !== 'processing') return e;
    if (Date.now() > deadline) throw new Error(`voice note of ${id} still processing`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every file under DATA_DIR/media/guestbook and media/incoming: what a refused message must not leave. */
export function guestbookFiles(dataDir: string): string[] {
  const list = (d: string) => (fs.existsSync(d) ? fs.readdirSync(d).map((n) => path.join(path.basename(d), n)) : []);
  return [...list(path.join(dataDir, 'media', 'guestbook')), ...list(path.join(dataDir, 'media', 'incoming'))];
}
