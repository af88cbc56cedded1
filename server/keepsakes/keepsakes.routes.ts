import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { requirePermission } from '../auth/auth.middleware.js';
import type { DataPaths } from '../context.js';
import { AppError, invalid, notFound } from '../errors.js';
import { beforeBody, readMultipart } from '../http/multipart.js';
import { codecFits, sniffAudio } from '../guestbook/audio-type.js';
import { isMachineFailure, MediaError } from '../processing/failures.js';
import type { VoiceNotes } from '../processing/voice-notes.js';
import { QueueStoppedError } from '../processing/queue.js';
import { pourIntoNewFile, type FileSink } from '../uploads/file-sink.js';
import { SNIFF_BYTES } from '../uploads/sniff.js';
import { musicDir, readRequest, type KeepsakesService } from './keepsakes.service.js';

/** The couple's track: at most 100 MB and 20 minutes. */
export const MUSIC_MAX_BYTES = 100 * 1024 * 1024;
export const MUSIC_MAX_SECONDS = 20 * 60;

const musicTooLarge = () => new AppError('too_large', 'errors.keepsakes.music_too_large', { mb: MUSIC_MAX_BYTES / 1024 / 1024 });

/** Sends a keepsake's file (ranges too: the film plays in the page); a file gone from the disk is a 404. */
function sendFile(res: Response, abs: string, type: string, name: string | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'Content-Type': type };
    if (name) headers['Content-Disposition'] = `attachment; filename="${name}"`;
    res.sendFile(abs, { cacheControl: false, headers }, (err?: Error & { status?: number; code?: string }) => {
      if (!err || err.code === 'ECONNABORTED' || err.code === 'ECONNRESET' || res.headersSent) return resolve();
      if (err.status === 404 || err.code === 'ENOENT') return reject(notFound('errors.keepsakes.not_found'));
      reject(err);
    });
  });
}

/** The panel's own address (QR codes lead there when no public address is set). */
const originOf = (req: Request): string | null => {
  const o = req.headers.origin;
  return typeof o === 'string' && /^https?:\/\/[^/]+$/.test(o) ? o : null;
};

/** Stores a track as sent, after its magic bytes and ffprobe agree it is sound of a kind the voice notes accept. */
async function storeMusic(req: Request, paths: DataPaths, probe: VoiceNotes['probe']) {
  const dir = musicDir(paths);
  await fs.mkdir(dir, { recursive: true });
  const id = crypto.randomUUID();
  const temp = path.join(dir, `${id}.part`);
  let sink: FileSink | undefined;
  let name = 'music';
  try {
    const { sawFile } = await readMultipart(req, async (file, filename, _fields, body) => {
      name = filename || name;
      sink = await pourIntoNewFile(temp, file, { hash: crypto.createHash('sha256'), limit: MUSIC_MAX_BYTES, tooLarge: musicTooLarge, body });
    });
    if (!sawFile || !sink || sink.seen === 0) throw invalid('errors.keepsakes.music_missing');
    const head = Buffer.alloc(SNIFF_BYTES);
    const h = await fs.open(temp, 'r');
    const { bytesRead } = await h.read(head, 0, SNIFF_BYTES, 0).finally(() => h.close());
    const type = sniffAudio(head.subarray(0, bytesRead));
    if (!type) throw new AppError('unsupported_type', 'errors.keepsakes.music_type');
    let facts;
    try {
      facts = await probe(temp);
    } catch (e) {
      if (e instanceof MediaError) throw invalid('errors.keepsakes.music_unreadable');
      if (isMachineFailure(e) || e instanceof QueueStoppedError) throw new AppError('unavailable', 'errors.keepsakes.music_unavailable', undefined, { retry_after: 30 });
      throw e;
    }
    if (facts.hasVideo || !codecFits(type, facts)) throw new AppError('unsupported_type', 'errors.keepsakes.music_type');
    if (!facts.duration) throw invalid('errors.keepsakes.music_unreadable');
    if (facts.duration > MUSIC_MAX_SECONDS + 1) throw invalid('errors.keepsakes.music_too_long', { minutes: MUSIC_MAX_SECONDS / 60 });
    const file = path.join(dir, `${id}.${type.ext}`);
    await fs.rename(temp, file);
    return { id, path: path.relative(paths.root, file), original_name: name.slice(0, 200), content_type: type.mime, file_size: sink.seen, duration: facts.duration };
  } finally {
    await fs.rm(temp, { force: true });
  }
}

/**
 * /admin/api/keepsakes: everyone signed in sees the keepsakes and downloads them; the couple and
 * admins (who moderate the photos) make, delete and share them and upload their music.
 */
export function adminKeepsakesRouter(keepsakes: KeepsakesService, paths: DataPaths, probe: VoiceNotes['probe']): Router {
  const r = Router();
  const anyAdmin = requirePermission('can_view_admin');
  const couple = requirePermission('can_moderate_photos');
  r.get('/keepsakes', anyAdmin, async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, keepsakes: await keepsakes.list(), music: await keepsakes.listMusic(), share_film: await keepsakes.shareFilm() });
  });
  r.post('/keepsakes', couple, async (req, res) => {
    const { kind, options } = readRequest(req.body);
    options.origin = originOf(req);
    const keepsake = await keepsakes.create(kind, options, req.user!.username);
    req.audit('keepsake_file.create', { ids: [keepsake.id], detail: { kind } });
    res.status(202).json({ success: true, keepsake });
  });
  r.put('/keepsakes/share', couple, async (req, res) => {
    const on = (req.body as { share_film?: unknown } | undefined)?.share_film;
    if (typeof on !== 'boolean') throw invalid('errors.keepsakes.bad_share');
    await keepsakes.setShareFilm(on);
    req.audit('keepsake_file.share', { detail: { share_film: on } });
    res.json({ success: true, share_film: on });
  });
  const checks = beforeBody(async (req) => {
    if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) throw invalid('errors.keepsakes.music_missing');
    if (Number(req.headers['content-length'] ?? 0) > MUSIC_MAX_BYTES + 64 * 1024) throw musicTooLarge();
  });
  r.post('/keepsakes/music', couple, checks, async (req, res) => {
    const music = await storeMusic(req, paths, probe);
    await keepsakes.addMusic(music);
    req.audit('keepsake_music.upload', { ids: [music.id] });
    res.status(201).json({ success: true, music: { id: music.id, original_name: music.original_name, file_size: music.file_size, duration: music.duration } });
  });
  r.get('/keepsakes/:id', anyAdmin, async (req, res) => {
    const k = await keepsakes.get(String(req.params.id));
    if (!k) throw notFound('errors.keepsakes.not_found');
    res.json({ success: true, keepsake: k });
  });
  r.get('/keepsakes/:id/file', anyAdmin, async (req, res) => {
    const f = await keepsakes.file(String(req.params.id));
    res.set('Cache-Control', 'private, no-store');
    await sendFile(res, f.abs, f.type, req.query.download === '1' ? f.name : null);
  });
  r.delete('/keepsakes/:id', couple, async (req, res) => {
    const id = String(req.params.id);
    await keepsakes.delete(id);
    req.audit('keepsake_file.delete', { ids: [id] });
    res.json({ success: true });
  });
  return r;
}

/** GET /api/keepsakes/film: the newest film while the couple shares it (the gallery page shows it). */
export function publicKeepsakesRouter(keepsakes: KeepsakesService): Router {
  const r = Router();
  r.get('/keepsakes/film', async (_req, res) => {
    const film = await keepsakes.sharedFilm();
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, film: film ? { url: `/api/keepsakes/film/${film.id}.mp4`, created_at: film.created_at, file_size: film.file_size } : null });
  });
  r.get('/keepsakes/film/:name', async (req, res) => {
    const film = await keepsakes.sharedFilm();
    if (!film || req.params.name !== `${film.id}.mp4`) throw notFound('errors.keepsakes.not_found');
    res.set('Cache-Control', 'private, max-age=300');
    await sendFile(res, film.abs, 'video/mp4', null);
  });
  return r;
}
