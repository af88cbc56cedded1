// The files under DATA_DIR as the off-site copy sees them: paths kept inside it, stats, folders
// walked without temporary names, and the type a browser needs for each.
import fs from 'node:fs';
import path from 'node:path';

/** Resolves a stored relative path inside DATA_DIR (null when it would leave it). */
export function inside(root: string, rel: string): string | null {
  const abs = path.resolve(root, rel);
  return abs.startsWith(path.resolve(root) + path.sep) ? abs : null;
}

export async function statFile(abs: string): Promise<fs.Stats | null> {
  try {
    const st = await fs.promises.stat(abs);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

/** Every file below `dir` (relative to root), skipping temporary names. */
export async function walk(root: string, dir: string, out: string[]): Promise<void> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) await walk(root, abs, out);
    else if (e.isFile() && !/\.(tmp|part|rotating)$|\.fetching-|^\./.test(e.name)) out.push(path.relative(root, abs).split(path.sep).join('/'));
  }
}

const TYPES: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif', gif: 'image/gif',
  heic: 'image/heic', heif: 'image/heif', mp4: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm',
  m4a: 'audio/mp4', mp3: 'audio/mpeg', ogg: 'audio/ogg', opus: 'audio/ogg', wav: 'audio/wav', aac: 'audio/aac',
};

/** What a browser needs to show an object served from the bucket. */
export function contentTypeOf(rel: string): string | undefined {
  return TYPES[path.extname(rel).slice(1).toLowerCase()];
}

