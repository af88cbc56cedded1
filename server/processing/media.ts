import fs from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths } from '../context.js';
import type { PhotoRow, PhotoUpdate } from '../db/schema.js';
import { readExif } from './exif.js';
import { posterFrame, probeVideo, strippedCopy, type VideoTools } from './ffmpeg.js';
import { imageFacts, writeImageDerivatives } from './sharp.js';

export interface MediaDeps {
  paths: DataPaths;
  tools: VideoTools;
}

/** Why a file could not be turned into derivatives, in words an admin can read. */
export class MediaError extends Error {}

const rel = (paths: DataPaths, abs: string) => path.relative(paths.root, abs);

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
      return await videoDerivatives(deps, original, dir, version, thumb);
    }
    const display = path.join(dir, `display-v${version}.webp`);
    const [facts, exif] = await Promise.all([imageFacts(original), readExif(original)]);
    await writeImageDerivatives(original, display, thumb);
    return {
      width: facts.width,
      height: facts.height,
      orientation: facts.orientation ?? exif.orientation,
      date_taken: exif.dateTaken,
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
    throw new MediaError(readable(e, photo.content_type));
  }
}

async function videoDerivatives(deps: MediaDeps, original: string, dir: string, version: number, thumb: string): Promise<PhotoUpdate> {
  const facts = await probeVideo(deps.tools, original);
  const container = original.endsWith('.avi') ? 'avi' : 'mp4';
  const display = path.join(dir, `display-v${version}.${container}`);
  const at = facts.duration !== null && facts.duration >= 2 ? 1 : 0;
  const frame = await posterFrame(deps.tools, original, at);
  if (frame.length === 0) throw new Error('no frame could be read');
  await writeImageDerivatives(frame, path.join(dir, `poster-v${version}.webp`), thumb);
  await fs.rm(path.join(dir, `poster-v${version}.webp`), { force: true });
  try {
    await strippedCopy(deps.tools, original, display, container);
  } catch (e) {
    // Some QuickTime codecs cannot live in MP4: keep the QuickTime container then.
    if (!original.endsWith('.mov')) throw e;
    await fs.rm(display, { force: true });
    const mov = path.join(dir, `display-v${version}.mov`);
    await strippedCopy(deps.tools, original, mov, 'mov');
    return videoRow(deps, facts, thumb, mov, version);
  }
  return videoRow(deps, facts, thumb, display, version);
}

function videoRow(deps: MediaDeps, facts: Awaited<ReturnType<typeof probeVideo>>, thumb: string, display: string, version: number): PhotoUpdate {
  return {
    width: facts.width,
    height: facts.height,
    duration: facts.duration,
    date_taken: facts.creationTime,
    camera_make: facts.cameraMake,
    camera_model: facts.cameraModel,
    thumb_path: rel(deps.paths, thumb),
    display_path: rel(deps.paths, display),
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

/** Deletes every derivative in the photo's folder except those of `keepVersion`. */
export async function removeOldVersions(paths: DataPaths, photoId: string, keepVersion: number): Promise<void> {
  const dir = path.join(paths.derived, photoId);
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    if (!name.includes(`-v${keepVersion}.`)) await fs.rm(path.join(dir, name), { force: true });
  }
}
