import fs from 'node:fs/promises';
import path from 'node:path';
import { runTool } from './ffmpeg.js';
import { DEFAULT_STEP_LIMIT_MS } from './limits.js';
import { HEIF_CONVERT } from './tools.js';

export { HEIF_CONVERT, needsHeifDecoder } from './tools.js';

/**
 * Decodes a HEIC/HEIF file's primary image into a high-quality JPEG in `workDir` and returns its
 * path. libheif applies the container's rotation and mirroring (irot/imir), so the pixels come out
 * as displayed; the EXIF it copies into the JPEG still carries the camera's orientation, which
 * must therefore not be applied again. The caller removes `workDir`.
 */
export async function decodeHeif(input: string, workDir: string, stepMs = DEFAULT_STEP_LIMIT_MS): Promise<string> {
  await fs.mkdir(workDir, { recursive: true });
  const out = path.join(workDir, 'decoded.jpg');
  await runTool('heif-convert', HEIF_CONVERT, ['--quiet', '-q', '92', input, out], { timeoutMs: stepMs });
  // A file holding several top-level images gets one output each (decoded-1.jpg, ...): the first is the primary's.
  for (const name of ['decoded.jpg', 'decoded-1.jpg']) {
    const p = path.join(workDir, name);
    if (await fs.stat(p).then(() => true, () => false)) return p;
  }
  throw new Error('the HEIF decoder wrote no image');
}
