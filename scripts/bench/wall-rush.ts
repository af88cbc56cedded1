// The rush beside the wall (bench:wall-commands --rush): bench:rush's guests uploading, gallery
// browsers and the admin approving the queue, with its own client code (rush-clients.ts), in a
// process of their own, so that sending gigabytes does not delay the clock of the process that
// sends the remote's commands and times them. The parent drives it over IPC:
//   -> { type: 'make', plan }            <- { type: 'ready', files, gb, seconds }   (media made first)
//   -> { type: 'go', base, password }     <- { type: 'uploaded', seconds }   (every upload answered)
//   -> { type: 'stop' }                   <- { type: 'done', summary }
import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { admin, galleryBrowser, guest, type Outcome, type Run } from './rush-clients.js';
import { percentile, phoneAddress, Recorder } from './rush-http.js';
import { generateMedia, type MediaFile } from './rush-media.js';

export interface RushPlan {
  guests: number;
  photos: number;
  videos: number;
  photoMb: [number, number];
  videoMb: [number, number];
  /** Made pictures and clips; the other files are distinct copies of them (rush-media.ts). */
  distinct: number;
  browsers: number;
}

/** What the rush did: its uploads, and the guests' gallery reads it timed (its own process's view). */
export interface RushSummary {
  files: number;
  stored: number;
  failed: number;
  /** The first few distinct reasons uploads failed. */
  errors: string[];
  uploadSeconds: number;
  galleryP99Ms: number | null;
  chunkP99Ms: number | null;
  approvals: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A route's p99 in ms, null when it had no request (no file above the chunk size). */
const p99 = (rec: Recorder, name: string) => {
  const ms = rec.get('rush', name)?.ms.slice().sort((a, b) => a - b) ?? [];
  return ms.length ? Math.round(percentile(ms, 99)) : null;
};

/** The parent's handle on the rush's process. */
export class RushProcess {
  private constructor(private readonly child: ChildProcess) {}

  get pid(): number {
    return this.child.pid!;
  }

  /** Starts the process and makes the media (before any measuring: it takes the CPU while it runs). */
  static async make(plan: RushPlan): Promise<{ rush: RushProcess; files: number; gb: number; seconds: number }> {
    const child = fork(fileURLToPath(import.meta.url), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    const ready = await RushProcess.next<{ files: number; gb: number; seconds: number }>(child, 'ready', { type: 'make', plan });
    return { rush: new RushProcess(child), ...ready };
  }

  /** The rush starts; resolves once every upload has its answer (the readers and the admin go on). */
  go(base: string, password: string): Promise<{ seconds: number }> {
    return RushProcess.next(this.child, 'uploaded', { type: 'go', base, password });
  }

  stop(): Promise<RushSummary> {
    return RushProcess.next<{ summary: RushSummary }>(this.child, 'done', { type: 'stop' }).then((m) => m.summary);
  }

  private static next<T>(child: ChildProcess, type: string, send: object): Promise<T> {
    return new Promise((resolve, reject) => {
      const on = (m: { type: string }) => {
        if (m.type !== type) return;
        child.off('message', on);
        resolve(m as T);
      };
      child.on('message', on);
      child.once('exit', (code) => reject(new Error(`the rush's process ended (${code}) before '${type}'`)));
      child.send(send);
    });
  }
}

/** The child: makes the media, then runs bench:rush's people against the server until told to stop. */
function serve(): void {
  const send = (m: object, then?: () => void) => process.send!(m, undefined, {}, () => then?.());
  const parent = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const work = fs.mkdtempSync(path.join(parent, 'wall-rush-'));
  const rec = new Recorder();
  rec.phase = 'rush';
  let stop = false;
  let media: MediaFile[][] = [];
  let plan: RushPlan | undefined;
  let people: Promise<unknown> | undefined;
  let outcomes: Outcome[] = [];
  let uploadSeconds = NaN;
  process.on('message', async (m: { type: 'make'; plan: RushPlan } | { type: 'go'; base: string; password: string } | { type: 'stop' }) => {
    if (m.type === 'make') {
      plan = m.plan;
      const t = performance.now();
      media = await generateMedia({ dir: work, prefix: '', guests: plan.guests, photosPerGuest: plan.photos, videosPerGuest: plan.videos, photoMb: plan.photoMb, videoMb: plan.videoMb, distinct: plan.distinct });
      const files = media.flat();
      send({ type: 'ready', files: files.length, gb: +(files.reduce((n, f) => n + f.size, 0) / 1e9).toFixed(2), seconds: Math.round((performance.now() - t) / 1000) });
    } else if (m.type === 'go') {
      const run: Run = { rec, stopped: () => stop };
      const t = performance.now();
      let sending = media.length;
      const uploaded = () => {
        if (--sending > 0) return;
        uploadSeconds = (performance.now() - t) / 1000;
        send({ type: 'uploaded', seconds: Math.round(uploadSeconds) });
      };
      // Each guest polls its uploads' status after sending them, until they settle or the rush stops.
      const guests = Promise.all(media.map((own, g) => sleep(Math.random() * 2000).then(() => guest(run, m.base, own, `wall-rush-${g}`, uploaded, phoneAddress('guest', g)))));
      people = Promise.all([...Array.from({ length: plan!.browsers }, (_, i) => galleryBrowser(run, m.base, i)), admin(run, m.base, m.password), guests.then((o) => (outcomes = o.flat()))]);
    } else {
      stop = true;
      await people;
      fs.rmSync(work, { recursive: true, force: true });
      const summary: RushSummary = {
        files: outcomes.length,
        stored: outcomes.filter((o) => o.photoId).length,
        failed: outcomes.filter((o) => o.error).length,
        errors: [...new Set(outcomes.map((o) => o.error?.slice(0, 160)).filter((e): e is string => !!e))].slice(0, 3),
        uploadSeconds: Math.round(uploadSeconds),
        galleryP99Ms: p99(rec, 'GET /api/photos (gallery page)'),
        chunkP99Ms: p99(rec, 'POST /api/upload-chunk'),
        approvals: rec.get('rush', 'POST bulk approve')?.ms.length ?? 0,
      };
      send({ type: 'done', summary }, () => process.disconnect());
    }
  });
}

if (process.send && import.meta.url === pathToFileURL(process.argv[1] ?? '').href) serve();
