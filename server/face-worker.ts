// A face worker: a child process the server starts at the lowest CPU priority when a guest asks
// to find their photos, and stops when the search has been idle a while. It loads the face
// networks (server/faces/engine/face-model.ts) and answers one picture at a time; the face codes
// of gallery pictures stay in this process's memory only, and go with it.
// Protocol: server/faces/engine/face-protocol.ts.
import heicDecoder from 'heic-decode';
import sharp from 'sharp';
import { toRelative, type Box } from './faces/engine/boxes.js';
import { decode, detectFaces, facesOf, selfieCode, DEFAULT_PLAN, SELFIE_PLAN, type DetectionPlan } from './faces/engine/faces-in-picture.js';
import { loadModels } from './faces/engine/face-model.js';
import type { BoxesRequest, FaceSetup, FromFaceWorker, PictureAnswer, PictureRequest, SelfieRequest, ToFaceWorker } from './faces/engine/face-protocol.js';
import { log } from './log.js';

/** Where the detector looks in gallery pictures and in selfies. */
let plan: DetectionPlan = DEFAULT_PLAN;
let selfiePlan: DetectionPlan = SELFIE_PLAN;
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

/** A HEIC selfie is at most this many pixels (a phone's 48 MP mode, with room). */
const MAX_HEIC_PIXELS = 64_000_000;

async function selfie(req: SelfieRequest): Promise<{ code: Float32Array | null }> {
  if (!req.heic) return { code: await selfieCode(await decode(Buffer.from(req.bytes), 1024), selfiePlan) };
  // sharp's libvips cannot decode HEVC, and heif-convert reads only files: libheif compiled to
  // WebAssembly decodes it here, in this process's memory, so the selfie never touches a disk.
  // It applies the container's rotation and mirroring, so nothing turns the pixels again.
  const heif = await heicDecoder.all({ buffer: Buffer.from(req.bytes) });
  try {
    const first = heif[0];
    if (!first) throw new Error('heif: no image in the selfie');
    if (first.width * first.height > MAX_HEIC_PIXELS) throw new Error('heif: the selfie is too large');
    const { data, width, height } = await first.decode();
    const rgba = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const pixels = await sharp(rgba, { raw: { width, height, channels: 4 } }).resize(1024, 1024, { fit: 'inside', withoutEnlargement: true }).jpeg().toBuffer();
    return { code: await selfieCode(await decode(pixels, 1024), selfiePlan) };
  } finally {
    heif.dispose();
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
