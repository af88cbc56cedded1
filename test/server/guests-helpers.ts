// Two guests as two browsers: each TestClient keeps its own cookie jar, so each has its own wedding_guest.
import { TestClient } from '../helpers/server.js';

export type Answer = { status: number; body: any };

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) };
  } catch {
    return { status: res.status, body: text };
  }
}

/** POST /api/upload from this guest's browser, with the name field when given. */
export async function guestUpload(c: TestClient, data: Buffer, filename: string, uploaderName?: string): Promise<Answer> {
  const form = new FormData();
  form.append('session_id', 'guest-session');
  if (uploaderName !== undefined) form.append('uploader_name', uploaderName);
  form.append('file', new Blob([new Uint8Array(data)]), filename);
  return answer(await c.fetch('/api/upload', { method: 'POST', body: form }));
}

/** A chunked upload from this guest's browser; `names[i]` is the uploader_name sent with chunk i (none when undefined). */
export async function guestChunked(c: TestClient, data: Buffer, filename: string, chunkSize: number, names: (string | undefined)[]): Promise<Answer> {
  let last: Answer = { status: 0, body: null };
  const uploadId = `u${Math.random().toString(36).slice(2)}`;
  for (let start = 0, i = 0; start < data.length; start += chunkSize, i++) {
    const end = Math.min(data.length, start + chunkSize);
    const form = new FormData();
    const fields: Record<string, string> = {
      session_id: 'guest-session',
      upload_id: uploadId,
      filename,
      total_size: String(data.length),
      chunk_start: String(start),
      chunk_end: String(end),
      is_last_chunk: String(end === data.length),
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (names[i] !== undefined) form.append('uploader_name', names[i]!);
    form.append('file', new Blob([new Uint8Array(data.subarray(start, end))]), 'blob');
    last = await answer(await c.fetch('/api/upload-chunk', { method: 'POST', body: form }));
    if (last.status !== 200 && last.status !== 201) return last;
  }
  return last;
}

/** Waits until the photo's thumbnail exists (processing done). */
export async function processed(c: TestClient, photoId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const r = await c.get(`/api/photos/${photoId}/status`);
    if (r.body.status !== 'processing') return;
    if (Date.now() > deadline) throw new Error(`photo ${photoId} still processing`);
    await new Promise((res) => setTimeout(res, 100));
  }
}
