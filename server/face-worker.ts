// A face worker: a child process the server starts at the lowest CPU priority when a guest asks
// to find their photos, and stops when the search has been idle a while. It loads the face
// networks (server/faces/engine/face-model.ts) and answers one picture at a time; the face codes
// of gallery pictures stay in this process's memory only, and go with it.
// Protocol: server/faces/engine/face-protocol.ts.
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { decodeHeif } from './processing/heif.js';
import { toRelative, type Box } from './faces/engine/boxes.js';
import { decode, detectFaces, facesOf, selfieCode, DEFAULT_PLAN, SELFIE_PLAN, type DetectionPlan } from './faces/engine/faces-in-picture.js';
import { loadModels } from './faces/engine/face-model.js';
import type { BoxesRequest, FaceSetup, FromFaceWorker, PictureAnswer, PictureRequest, SelfieRequest, ToFaceWorker } from './faces/engine/face-protocol.js';
import { log } from './log.js';

/** Where the detector looks in gallery pictures and in selfies. */
let plan: DetectionPlan = DEFAULT_PLAN;
let selfiePlan: DetectionPlan = SELFIE_PLAN;
let scratchDir = '';
/** Codes of gallery faces by file key: in memory only, gone when the worker stops. */
const remembered = new Map<string, Float32Array[]>();
const MAX_REMEMBERED = 50_000;
/** One picture at a time: the networks are single-threaded and the work would only interleave. */
let queue: Promise<unknown> = Promise.resolve();

const send = (m: FromFaceWorker) => {
  if (process.connected) process.send!(m);
};

async function picture(req: PictureRequest): Promise<PictureAnswer> {
  const known = remembered.get(req.key);
  if (known) return { boxes: null, codes: known, detected: false };
  // Decoded at the finest detection level's long side.
  const img = await decode(req.file, Math.max(...plan.levels));
  const faces = await facesOf(img, req.boxes, plan);
  const codes = faces.codes.filter((c): c is Float32Array => c !== null);
  if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
  remembered.set(req.key, codes);
  return { boxes: req.boxes ? null : faces.boxes, codes, detected: !req.boxes };
}

/** Where the faces are, without describing them: the costly part of a first scan, done ahead. */
async function boxesOf(req: BoxesRequest): Promise<{ boxes: Box[] }> {
  const img = await decode(req.file, Math.max(...plan.levels));
  return { boxes: (await detectFaces(img, plan)).map((d) => toRelative(d, img.width, img.height)) };
}

async function selfie(req: SelfieRequest): Promise<{ code: Float32Array | null }> {
  if (!req.heic) return { code: await selfieCode(await decode(Buffer.from(req.bytes), 1024), selfiePlan) };
  // sharp's libvips cannot decode HEVC: heif-convert reads a file, so the bytes go to a
  // memory-backed folder for the moment it takes, and the folder is removed at once.
  const work = await fs.mkdtemp(path.join(scratchDir, 'selfie-'));
  try {
    const input = path.join(work, 'selfie.heic');
    await fs.writeFile(input, req.bytes, { mode: 0o600 });
    const jpeg = await decodeHeif(input, work);
    // libheif applied the rotation already: EXIF orientation must not turn it again.
    const pixels = await sharp(jpeg).resize(1024, 1024, { fit: 'inside', withoutEnlargement: true }).jpeg().toBuffer();
    return { code: await selfieCode(await decode(pixels, 1024), selfiePlan) };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

function run(req: SelfieRequest | PictureRequest | BoxesRequest): void {
  queue = queue.then(async () => {
    try {
      await loadModels();
      const value = req.type === 'selfie' ? await selfie(req) : req.type === 'boxes' ? await boxesOf(req) : await picture(req);
      send({ type: 'done', id: req.id, value });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      // A damaged or vanished file is that picture's problem; anything else is the worker's.
      const unreadable = /unsupported image format|Input file|corrupt|premature|VipsJpeg|ENOENT|heif/i.test(message);
      send({ type: 'failed', id: req.id, message, unreadable });
    }
  });
}

function setup(m: FaceSetup): void {
  plan = { levels: m.levels?.length ? m.levels : DEFAULT_PLAN.levels, baseline: m.baseline };
  selfiePlan = { ...SELFIE_PLAN, baseline: m.baseline };
  scratchDir = m.scratchDir;
  sharp.concurrency(1);
  sharp.cache(false);
  // Loading takes seconds: start at once so the first picture does not wait for all of it.
  loadModels().then(
    () => send({ type: 'ready' }),
    (e) => {
      log.error('The face networks could not be loaded', e);
      process.exit(1);
    },
  );
}

process.on('message', (m: ToFaceWorker) => {
  switch (m.type) {
    case 'setup':
      return setup(m);
    case 'selfie':
    case 'picture':
    case 'boxes':
      return run(m);
    case 'forget':
      remembered.clear();
      return;
    case 'stop':
      remembered.clear();
      setTimeout(() => process.exit(0), 50).unref();
      return;
  }
});
process.on('disconnect', () => process.exit(0));
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('uncaughtException', (e) => {
  log.error('The face worker failed', e);
  process.exit(1);
});
