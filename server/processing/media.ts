import fs from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths } from '../context.js';
import type { PhotoRow, PhotoUpdate } from '../db/schema.js';
import { readExif } from './exif.js';
import { isMachineFailure, MediaError } from './failures.js';
import { posterFrame, probeVideo, type VideoFacts, type VideoTools } from './ffmpeg.js';
import { decodeHeif, needsHeifDecoder } from './heif.js';
import { DEFAULT_STEP_LIMIT_MS, StepTimeoutError, withinLimit } from './limits.js';
import { measureFile, qualityFlags, type ImageMeasures } from './quality.js';
import { readStillImage, readWhole, writeImageDerivatives } from './sharp.js';
import { ToolMissingError } from './tools.js';
import { playsAsIs, webFilters, writeWebCopy, type WebCopyOptions } from './video.js';

export interface MediaDeps {
  paths: DataPaths;
  tools: VideoTools;
}

const rel = (paths: DataPaths, abs: string) => path.relative(paths.root, abs);
const stepMs = (deps: MediaDeps) => deps.tools.stepMs ?? DEFAULT_STEP_LIMIT_MS;

/** Not the file's fault: passed on as they are (the queue retries, parks or counts an attempt), never made a MediaError. */
const notTheFile = (e: unknown) => isMachineFailure(e) || e instanceof StepTimeoutError || e instanceof ToolMissingError;

/**
 * Reads a stored original and writes its derivatives under media/derived/<id>/ with the next
 * version number (URLs carry it, so browsers never show a stale thumbnail); returns the row
 * fields to store. Older versions are removed only after the row points at the new ones.
 */
export async function buildDerivatives(deps: MediaDeps, photo: PhotoRow): Promise<PhotoUpdate> {
  const original = path.join(deps.paths.root, photo.stored_path);
  const dir = path.join(deps.paths.derived, photo.id);
  await fs.mkdir(dir, { recursive: true });
  const version = photo.derivative_version + 1;
  const thumb = path.join(dir, `thumb-v${version}.webp`);
  try {
    if (photo.content_type.startsWith('video/')) {
      return await videoDerivatives(deps, photo, dir, version, thumb);
    }
    const display = path.join(dir, `display-v${version}.webp`);
    // HEIC/HEIF: decoded by libheif into upright pixels first; EXIF is read from the original either way.
    const heif = needsHeifDecoder(photo.content_type);
    const work = path.join(dir, `decode-v${version}`);
    const limit = stepMs(deps);
    const made = (async () => {
      const source = heif ? await decodeHeif(original, work, limit) : original;
      // Read once: the bytes give the header, the one decode and the EXIF (a HEIF's, as its decoder copied it).
      const bytes = await readWhole(source);
      const { facts, exif: header, measures } = await withinLimit('Making the thumbnails', limit, readStillImage(bytes, display, thumb, heif));
      const found = await withinLimit('Reading the photo', limit, readExif(bytes, header ?? null));
      const exif = heif && Object.values(found).every((v) => v === null) ? await withinLimit('Reading the photo', limit, readExif(original)) : found;
      return { facts, exif, measures };
    })();
    const { facts, exif, measures } = await made.finally(() => fs.rm(work, { recursive: true, force: true }));
    return {
      ...measuredFields(measures, exif.dateTaken ?? photo.date_taken ?? photo.upload_timestamp),
      width: facts.width,
      height: facts.height,
      orientation: facts.orientation ?? exif.orientation,
      // The file's own date, else the capture time the page sent (a photo taken in the page).
      date_taken: exif.dateTaken ?? photo.date_taken,
      camera_make: exif.cameraMake,
      camera_model: exif.cameraModel,
      thumb_path: rel(deps.paths, thumb),
      display_path: rel(deps.paths, display),
      derivative_version: version,
      status: 'complete',
      processing_error: null,
    };
  } catch (e) {
    await removeVersion(dir, version);
    if (notTheFile(e)) throw e;
    throw new MediaError(readable(e, photo.content_type));
  }
}

/**
 * Poster and thumbnail from a frame turned and tone-mapped as the web copy will be. When the
 * original plays everywhere as it is, its web copy (a plain stream copy) is written here and the
 * video is complete; otherwise the row stays 'processing' and the caller queues the re-encode
 * (keeping any earlier web copy listed until the new one exists).
 */
async function videoDerivatives(deps: MediaDeps, photo: PhotoRow, dir: string, version: number, thumb: string): Promise<PhotoUpdate> {
  const original = path.join(deps.paths.root, photo.stored_path);
  const facts = await probeVideo(deps.tools, original);
  const at = facts.duration !== null && facts.duration >= 2 ? 1 : 0;
  const frame = await posterFrame(deps.tools, original, at, webFilters(facts));
  if (frame.length === 0) throw new Error('no frame could be read');
  await withinLimit('Making the thumbnails', stepMs(deps), writeImageDerivatives(frame, path.join(dir, `poster-v${version}.webp`), thumb, false, false));
  await fs.rm(path.join(dir, `poster-v${version}.webp`), { force: true });
  const row = videoRow(deps, { ...facts, creationTime: facts.creationTime ?? photo.date_taken }, thumb, version);
  if (!playsAsIs(facts)) return (await hasWebCopy(deps, photo)) ? row : { ...row, status: 'processing' };
  const web = webCopyPath(dir, version);
  await writeWebCopy(deps.tools, original, web, facts);
  return { ...row, display_path: rel(deps.paths, web) };
}

/** A regenerate keeps an earlier re-encode when it plays everywhere (copies made before web copies existed do not). */
async function hasWebCopy(deps: MediaDeps, photo: PhotoRow): Promise<boolean> {
  if (!photo.display_path) return false;
  const facts = await probeVideo(deps.tools, path.join(deps.paths.root, photo.display_path)).catch(() => null);
  return facts !== null && playsAsIs(facts);
}

/** Where the web copy of derivative version `version` lives. */
export const webCopyPath = (dir: string, version: number) => path.join(dir, `display-v${version}.mp4`);

/**
 * Re-encodes a video's web copy (the transcode job): returns the row fields to store, or null
 * when the video changed meanwhile (a newer version will be made by its own job).
 */
export async function encodeWebCopy(deps: MediaDeps, photo: PhotoRow, o: WebCopyOptions = {}): Promise<PhotoUpdate> {
  const original = path.join(deps.paths.root, photo.stored_path);
  const web = webCopyPath(path.join(deps.paths.derived, photo.id), photo.derivative_version);
  try {
    const facts = await probeVideo(deps.tools, original);
    await writeWebCopy(deps.tools, original, web, facts, o);
  } catch (e) {
    if (o.signal?.aborted || notTheFile(e)) throw e;
    throw new MediaError(readable(e, photo.content_type));
  }
  return { display_path: rel(deps.paths, web), status: 'complete', processing_error: null };
}

/** The photo's similar-shot and quality columns (quality.ts); `takenAt` is when it was taken, else uploaded. */
export function measuredFields(m: ImageMeasures | null, takenAt: string): PhotoUpdate {
  if (!m) return {};
  const shot = Date.parse(takenAt);
  return { phash: m.phash, sharpness: Math.round(m.sharpness * 10) / 10, quality_flags: qualityFlags(m).join(','), shot_at: Number.isNaN(shot) ? null : shot };
}

/** The measures of a photo already processed, from its display image (the backfill of photos stored before measuring). */
export async function measureStored(deps: MediaDeps, photo: PhotoRow): Promise<PhotoUpdate> {
  const display = photo.display_path ? path.join(deps.paths.root, photo.display_path) : null;
  if (!display || photo.content_type.startsWith('video/')) return {};
  return measuredFields(await withinLimit('Measuring the photo', stepMs(deps), measureFile(display)), photo.date_taken ?? photo.upload_timestamp);
}

function videoRow(deps: MediaDeps, facts: VideoFacts, thumb: string, version: number): PhotoUpdate {
  return {
    width: facts.width,
    height: facts.height,
    duration: facts.duration,
    date_taken: facts.creationTime,
    camera_make: facts.cameraMake,
    camera_model: facts.cameraModel,
    thumb_path: rel(deps.paths, thumb),
    derivative_version: version,
    status: 'complete',
    processing_error: null,
  };
}

function readable(e: unknown, contentType: string): string {
  const kind = contentType.startsWith('video/') ? 'video' : 'image';
  const detail = e instanceof Error ? e.message.split('\n')[0] : String(e);
  return `The ${kind} could not be processed: ${detail}`.slice(0, 500);
}

async function removeVersion(dir: string, version: number): Promise<void> {
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    if (name.includes(`-v${version}.`)) await fs.rm(path.join(dir, name), { force: true });
  }
}
