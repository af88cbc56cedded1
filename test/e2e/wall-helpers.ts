import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import sharp from 'sharp';

/** Uploads a file the way a guest's phone does (POST /api/upload) and returns the photo id. */
export async function guestUpload(base: string, file: string, type = 'image/jpeg'): Promise<string> {
  const fd = new FormData();
  fd.append('session_id', 'wall-test-session');
  fd.append('file', new Blob([fs.readFileSync(file)], { type }), path.basename(file));
  const res = await fetch(base + '/api/upload', { method: 'POST', body: fd });
  const body = (await res.json()) as { success: boolean; photo_id: string };
  if (!res.ok || !body.success) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  return body.photo_id;
}

/** Waits until processing has finished (the display image exists). */
export async function waitProcessed(base: string, id: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = (await (await fetch(`${base}/api/photos/${id}/status`)).json()) as { status: string };
    if (r.status === 'complete') return;
    if (r.status === 'error') throw new Error(`processing failed for ${id}`);
    if (Date.now() > deadline) throw new Error(`processing of ${id} did not finish in ${ms} ms`);
    await new Promise((res) => setTimeout(res, 200));
  }
}

/** Decodes a QR code from a PNG screenshot (as a phone camera would read the screen). */
export async function decodeQrPng(png: Buffer): Promise<string | undefined> {
  const { data, info } = await sharp(png).flatten({ background: '#fff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data;
}
