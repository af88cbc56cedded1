// The people of the rush benchmark, each a bounded loop: guests uploading the way the guest
// page does (SPEC §7-§9), gallery browsers, and an admin working the approval queue.
import fs from 'node:fs';
import path from 'node:path';
import { MAX_TURN_ASKS } from '../../client/uploads/constants.js';
import { Browser, multipart, phoneAddress, Recorder, type Answer } from './rush-http.js';
import type { MediaFile } from './rush-media.js';

export const CHUNK = 5 * 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RETRIES = 5;

/** Shared by every client: where to record, and when the run ends (every loop checks it). */
export interface Run {
  rec: Recorder;
  stopped: () => boolean;
  /**
   * The harsher rush (--harsh): a guest opens the page first (GET /api/stats on a new
   * connection), and each gallery visitor starts on a new connection, as a phone arriving does.
   */
  harsh?: boolean;
  /** A guest's first request made by another process (the readers'), where one runs, from the guest's address. */
  visit?: (address: string | undefined) => Promise<void>;
  /** --no-turns: each upload request sent at once, without asking for its turn (the page before turns). */
  noTurns?: boolean;
}

export const TURN = 'GET /api/upload-turn (waiting for the turn)';

/** As the page does (client/uploads/requests.ts turn()): waits for the turn to send `bytes`; '' without one. */
async function turn(run: Run, b: Browser, bytes: number): Promise<string> {
  if (run.noTurns) return '';
  for (let asked = 0; asked < MAX_TURN_ASKS; asked++) {
    let a: Answer;
    try {
      a = await b.request('GET', `/api/upload-turn?bytes=${bytes}`);
    } catch {
      run.rec.failed(TURN);
      return '';
    }
    run.rec.add(TURN, a.ms, a.status);
    if (a.status !== 200) return '';
    const t = JSON.parse(a.body).turn;
    if (typeof t === 'string' && t) return `?turn=${encodeURIComponent(t)}`;
    if (t !== null) return '';
  }
  return '';
}

/** A phone's first request: a new connection, its setup included in the time. */
export const FIRST_REQUEST = 'GET /api/stats (first request, new connection)';
export const FIRST_CONNECT = '  of which the connection set up';

/** A new visitor's first look: a new connection, GET /api/stats. */
export async function firstVisit(run: Run, b: Browser): Promise<void> {
  try {
    const s = await b.request('GET', '/api/stats');
    run.rec.add(FIRST_REQUEST, s.ms, s.status);
    // Which part of it: the connection's setup (the kernel and the server accepting it) or the answer.
    if (!Number.isNaN(s.connectMs)) run.rec.add(FIRST_CONNECT, s.connectMs, s.status);
  } catch {
    run.rec.failed(FIRST_REQUEST);
  }
}

/** What became of one file: its photo id, or why it failed. */
export interface Outcome {
  file: MediaFile;
  photoId?: string;
  status?: string;
  error?: string;
  uploadedAt?: number;
  /** When polling saw it leave 'processing'. */
  settledAt?: number;
}

const retryable = (a: Answer | undefined) => !a || a.status === 502 || a.status === 503 || a.status === 504;

/** One request with the client's retry rule: network errors and 502-504, up to 5 times, 2 s x 1.5^n apart. */
async function withRetry(run: Run, route: string, send: () => Promise<Answer>, record: (a: Answer) => void): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    let a: Answer | undefined;
    try {
      a = await send();
      record(a);
    } catch {
      run.rec.failed(route);
    }
    if (!retryable(a) || attempt >= RETRIES) {
      if (!a) throw new Error(`${route}: network error after ${RETRIES} retries`);
      return a;
    }
    await sleep(2000 * 1.5 ** attempt);
  }
}

async function uploadSingle(run: Run, b: Browser, f: MediaFile, session: string): Promise<Answer> {
  const form = multipart({ session_id: session }, path.basename(f.path));
  return withRetry(
    run,
    'POST /api/upload',
    async () => b.request('POST', `/api/upload${await turn(run, b, f.size)}`, { headers: { 'content-type': form.type }, body: { file: f.path, start: 0, end: f.size, ...form } }),
    (a) => {
      run.rec.add('POST /api/upload', a.ms, a.status);
      run.rec.add('POST /api/upload (client\'s last byte to answer)', a.afterLastByteMs, a.status);
      if (!Number.isNaN(a.serverMs)) run.rec.add('POST /api/upload (server, after the body)', a.serverMs, a.status);
    },
  );
}

async function uploadChunked(run: Run, b: Browser, f: MediaFile, session: string): Promise<Answer> {
  const uploadId = `rush-${Math.random().toString(36).slice(2)}-${Date.now()}`;
  let start = 0;
  for (let guard = 0; guard < 10_000; guard++) {
    const end = Math.min(f.size, start + CHUNK);
    const fields = { chunk_start: start, chunk_end: end, total_size: f.size, filename: path.basename(f.path), session_id: session, is_last_chunk: end === f.size, upload_id: uploadId };
    const form = multipart(fields, 'blob');
    const a = await withRetry(
      run,
      'POST /api/upload-chunk',
      async () => b.request('POST', `/api/upload-chunk${await turn(run, b, end - start)}`, { headers: { 'content-type': form.type }, body: { file: f.path, start, end, ...form } }),
      (x) => {
        run.rec.add('POST /api/upload-chunk', x.ms, x.status);
        run.rec.add('POST /api/upload-chunk (client\'s last byte to answer)', x.afterLastByteMs, x.status);
        if (process.env.RUSH_TRACE) fs.appendFileSync(process.env.RUSH_TRACE, JSON.stringify({ at: performance.now() - x.ms, size: end - start, start, total: f.size, ms: x.ms, after: x.afterLastByteMs, server: x.serverMs }) + '\n');
        if (!Number.isNaN(x.serverMs)) run.rec.add('POST /api/upload-chunk (server, after the body)', x.serverMs, x.status);
      },
    );
    if (a.status === 409) {
      // The server holds a different amount: resume from there.
      const held = Number(JSON.parse(a.body).received_bytes ?? 0);
      start = held;
      continue;
    }
    if (a.status !== 200 && a.status !== 201) return a;
    if (end === f.size) return a;
    start = end;
  }
  throw new Error('chunk loop did not end');
}

/** Status polling as the guest page does it: first after 1 s, then every 1.5 s, at most 120 tries. */
export async function pollStatus(run: Run, b: Browser, out: Outcome, tries = 120, firstMs = 1000): Promise<void> {
  await sleep(firstMs);
  for (let i = 0; i < tries && !run.stopped(); i++) {
    try {
      const a = await b.request('GET', `/api/photos/${out.photoId}/status`);
      run.rec.add('GET /api/photos/{id}/status', a.ms, a.status);
      if (a.status === 200) {
        out.status = JSON.parse(a.body).status;
        if (out.status !== 'processing') {
          out.settledAt = performance.now();
          return;
        }
      }
    } catch {
      run.rec.failed('GET /api/photos/{id}/status');
    }
    await sleep(1500);
  }
}

/**
 * One guest: every file sent, three in flight; each upload's status polled until it settles.
 * `uploaded` is called once every file has its answer (the polls may go on).
 */
export async function guest(run: Run, base: string, files: MediaFile[], session: string, uploaded?: () => void, address?: string): Promise<Outcome[]> {
  const b = new Browser(base, address);
  if (run.harsh) await (run.visit ? run.visit(address) : firstVisit(run, b));
  const outcomes = files.map((file) => ({ file }) as Outcome);
  const polls: Promise<void>[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      while (next < outcomes.length) {
        const out = outcomes[next++];
        try {
          const a = out.file.size <= CHUNK ? await uploadSingle(run, b, out.file, session) : await uploadChunked(run, b, out.file, session);
          const body = JSON.parse(a.body);
          if (a.status !== 201 && a.status !== 200) throw new Error(`${a.status} ${a.body}`);
          out.photoId = body.photo_id;
          out.uploadedAt = performance.now();
          polls.push(pollStatus(run, b, out));
        } catch (e) {
          out.error = (e as Error).message;
        }
      }
    }),
  );
  uploaded?.();
  await Promise.all(polls);
  b.close();
  return outcomes;
}

/**
 * Guests opening the gallery one after another: each visitor scrolls up to 5 pages (1-2 s apart),
 * loads the thumbnails it has not seen (6 at a time; they are immutable, so a browser fetches each
 * once), opens one photo and reads the stats; then the next visitor starts with an empty cache.
 */
export async function galleryBrowser(run: Run, base: string, index = 0): Promise<void> {
  // Browser `index`'s visitors are phones of their own: each comes from its own address.
  let visitors = 0;
  const phone = () => phoneAddress('gallery', index * 1000 + (visitors++ % 1000));
  let b = new Browser(base, phone());
  let seen = new Set<string>();
  for (let round = 0; round < 100_000 && !run.stopped(); round++) {
    const page = round % 5;
    if (page === 0) seen = new Set();
    if (page === 0 && run.harsh && round > 0) {
      // The next visitor: a phone of its own, so a new connection.
      b.close();
      b = new Browser(base, phone());
    }
    try {
      const a = await b.request('GET', `/api/photos?limit=20&offset=${page * 20}`);
      run.rec.add('GET /api/photos (gallery page)', a.ms, a.status);
      const body = a.status === 200 ? JSON.parse(a.body) : { photos: [] };
      const urls: string[] = body.photos.map((p: { thumbnail_url: string | null }) => p.thumbnail_url).filter((u: string | null) => u && !seen.has(u));
      urls.forEach((u) => seen.add(u));
      await Promise.all(
        Array.from({ length: 6 }, async (_, lane) => {
          for (let i = lane; i < urls.length; i += 6) {
            const t = await b.request('GET', urls[i]);
            run.rec.add('GET thumbnail', t.ms, t.status);
          }
        }),
      );
      const photos = body.photos.filter((p: { backblaze_url: string | null; content_type: string }) => p.backblaze_url && p.content_type.startsWith('image/'));
      const shown = photos[Math.floor(Math.random() * photos.length)];
      if (shown) {
        const d = await b.request('GET', shown.backblaze_url);
        run.rec.add('GET display image', d.ms, d.status);
      }
      if (page === 0) {
        const s = await b.request('GET', '/api/stats');
        run.rec.add('GET /api/stats', s.ms, s.status);
      }
    } catch {
      run.rec.failed('gallery browsing');
    }
    await sleep(1000 + Math.random() * 1000);
  }
  b.close();
}

const JSON_FROM = (base: string) => ({ 'content-type': 'application/json', origin: base });

async function signIn(base: string, password: string): Promise<Browser> {
  const b = new Browser(base, phoneAddress('admin', 0));
  const login = await b.request('POST', '/admin/api/login', { headers: JSON_FROM(base), body: { buffer: Buffer.from(JSON.stringify({ username: 'admin', password })) } });
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${login.body}`);
  return b;
}

/** One pass over the approval queue (50 at a time, as the admin page's queue mode); how many were approved. */
async function approveQueue(rec: Recorder, b: Browser): Promise<number> {
  const list = await b.request('GET', '/admin/api/photos?page=1&per_page=50&show_all=false&pending=true');
  rec.add('GET /admin/api/photos (queue)', list.ms, list.status);
  const ids: string[] = list.status === 200 ? JSON.parse(list.body).photos.map((p: { id: string }) => p.id) : [];
  if (!ids.length) return 0;
  const body = { buffer: Buffer.from(JSON.stringify({ photo_ids: ids, action: 'show' })) };
  const a = await b.request('POST', '/admin/api/photos/bulk-toggle-visibility', { headers: JSON_FROM(b.base), body });
  rec.add('POST bulk approve', a.ms, a.status);
  return ids.length;
}

/** Approves everything waiting (bounded: 100 passes). */
export async function approveAll(base: string, password: string): Promise<void> {
  const b = await signIn(base, password);
  for (let i = 0; i < 100 && (await approveQueue(new Recorder(), b)) > 0; i++);
  b.close();
}

/** The admin: approves the queue every 2 s and reloads the dashboard every 5 s. */
export async function admin(run: Run, base: string, password: string): Promise<void> {
  const b = await signIn(base, password);
  let lastDashboard = 0;
  for (let round = 0; round < 100_000 && !run.stopped(); round++) {
    const t = performance.now();
    try {
      await approveQueue(run.rec, b);
      if (t - lastDashboard >= 5000) {
        lastDashboard = t;
        const d = await b.request('GET', '/admin/api/dashboard');
        run.rec.add('GET /admin/api/dashboard', d.ms, d.status);
      }
    } catch {
      run.rec.failed('admin');
    }
    await sleep(Math.max(0, 2000 - (performance.now() - t)));
  }
  b.close();
}
