import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { CHUNK_SIZE } from '../../client/uploads/constants.js';
import { newPage, screenshot, ServerProcess, startBrowserAndServer, stopBrowserAndServer } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { adminClient, TestClient } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { adminPhotos, row, waitStatus } from './guest-helpers.js';

let browser: Browser;
let srv: ServerProcess;
let admin: TestClient;
const dir = tempDir('upload-survive-');
before(async () => {
  [browser, srv] = await startBrowserAndServer();
  admin = await adminClient(srv.url);
});
after(() => stopBrowserAndServer(browser, srv));

/** A real JPEG of random noise (it hardly compresses): about 14 MB at 2400 x 2400. */
async function noiseJpeg(name: string, side: number, seed: number): Promise<string> {
  const file = path.join(dir, name);
  const raw = Buffer.alloc(side * side * 3);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < raw.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    raw[i] = x & 0xff;
  }
  await sharp(raw, { raw: { width: side, height: side, channels: 3 } }).jpeg({ quality: 100, chromaSubsampling: '4:4:4' }).toFile(file);
  return file;
}

/**
 * A phone's uplink: slow enough that a reload or a lost signal lands mid-transfer. Returns a
 * switch for the signal: the throttle's own session must go offline too, or it keeps the link up.
 */
async function slowUplink(context: BrowserContext, page: Page): Promise<(online: boolean) => Promise<void>> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const set = (offline: boolean) => cdp.send('Network.emulateNetworkConditions', { offline, latency: 20, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
  await set(false);
  return async (online) => {
    if (online) {
      await set(false);
      await context.setOffline(false);
    } else {
      await context.setOffline(true);
      await set(true);
    }
  };
}

/** A request's or response's path, without its query (an upload goes with ?turn=). */
const pathOf = (r: { url(): string }) => new URL(r.url()).pathname;

/** The upload queue as the page keeps it in IndexedDB. */
function keptUploads(page: Page): Promise<{ name: string; uploadId: string; sessionId: string; status: string }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('wedding-uploads');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const req = open.result.transaction('items').objectStore('items').getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

/** Records every toast that appears, and the most on screen at once (toasts leave after 5 s). */
function recordToasts(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { maxToasts: number; toastTexts: string[] };
    w.maxToasts = 0;
    w.toastTexts = [];
    new MutationObserver((records) => {
      for (const r of records) for (const n of r.addedNodes) if (n instanceof HTMLElement && n.matches('.toast')) w.toastTexts.push(n.innerText);
      w.maxToasts = Math.max(w.maxToasts, document.querySelectorAll('.toast').length);
    }).observe(document.body, { childList: true, subtree: true });
  });
}

function recorded(page: Page): Promise<{ maxToasts: number; toastTexts: string[] }> {
  return page.evaluate(() => {
    const w = window as unknown as { maxToasts: number; toastTexts: string[] };
    return { maxToasts: w.maxToasts, toastTexts: w.toastTexts };
  });
}

async function storedOnce(names: string[], sizes: Record<string, number>): Promise<void> {
  const photos = await adminPhotos(admin);
  for (const n of names) {
    const hits = photos.filter((p) => p.original_filename === n);
    assert.equal(hits.length, 1, `${n} stored exactly once`);
    assert.equal(hits[0].file_size, sizes[n], `${n}: every byte arrived`);
  }
}

test('a reload mid-upload: the files come back by themselves, the big one resumes from the server offset, each stored once', async () => {
  const big = await noiseJpeg('reception-big.jpg', 2400, 7);
  const smalls = [sample('Canon_40D.jpg'), sample('Nikon_D70.jpg')];
  const size = fs.statSync(big).size;
  assert.ok(size > 13 * 1024 * 1024, `big file is ${size} bytes`);
  const { page, context, errors } = await newPage(browser, { width: 390, height: 844 });
  await slowUplink(context, page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.type());
    void d.accept();
  });
  await page.goto(srv.url + '/live');
  await page.getByRole('heading', { name: 'Wedding Photo Collection' }).click(); // a user gesture, as a real guest makes
  await page.getByTestId('file-input').setInputFiles([big, ...smalls]);
  const firstChunk = await page.waitForResponse((r) => pathOf(r) === '/api/upload-chunk' && r.status() === 200, { timeout: 60_000 });
  const acked = (await firstChunk.json()).received_bytes as number;
  assert.ok(acked > 0 && acked < size);
  const kept = await keptUploads(page);
  assert.equal(kept.length, 3, 'every selected file is kept on the device');
  const { uploadId, sessionId } = kept.find((k) => k.name === path.basename(big))!;

  const after: Request[] = [];
  page.on('request', (r) => after.push(r));
  await page.reload();
  assert.deepEqual(dialogs, ['beforeunload'], 'leaving mid-upload asks first');

  // No file is selected again: the three rows are back and carry on.
  const name = path.basename(big);
  await row(page, name).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('.upload-item').count(), 3);
  await waitStatus(page, name, 'complete', 120_000);
  for (const f of smalls) await waitStatus(page, path.basename(f), 'complete');
  await page.getByTestId('upload-summary').filter({ hasText: 'All 3 files safely received' }).waitFor();
  await screenshot(page, 'upload-survive-reload');

  const offset = after.find((r) => r.url().includes('/api/upload-chunk/offset'));
  assert.ok(offset, 'asked the server where to resume');
  const q = new URL(offset.url()).searchParams;
  assert.equal(q.get('upload_id'), uploadId, 'same upload_id after the reload');
  assert.equal(q.get('session_id'), sessionId, 'same upload session after the reload');
  const held = (await (await offset.response())!.json()).received_bytes as number;
  assert.ok(held >= acked, `the server held ${held} bytes`);
  // Only the chunks past the server's offset are sent again: not the whole file. Counted from the
  // new page's offset question on: a chunk the old page had in flight while the reload began is
  // not a resend (it is why the server may hold more than the page last heard acknowledged).
  const resumed = after.slice(after.indexOf(offset)).filter((r) => pathOf(r) === '/api/upload-chunk');
  assert.equal(resumed.length, Math.ceil((size - held) / CHUNK_SIZE));
  assert.ok(resumed.length < Math.ceil(size / CHUNK_SIZE));
  assert.equal(after.filter((r) => pathOf(r) === '/api/upload').length, 0, 'the small files were not sent again');

  const sizes = Object.fromEntries([big, ...smalls].map((f) => [path.basename(f), fs.statSync(f).size]));
  await storedOnce(Object.keys(sizes), sizes);
  assert.deepEqual(errors, []);

  // Once finished and cleared, a new visit starts with an empty list.
  await page.getByRole('button', { name: 'Clear Completed' }).click();
  // The page deletes the cleared rows from IndexedDB without waiting; reload once they are gone.
  for (let i = 0; (await keptUploads(page)).length > 0; i++) {
    assert.ok(i < 200, 'the cleared uploads are still kept in IndexedDB after 10 s');
    await page.waitForTimeout(50);
  }
  await page.reload();
  await page.getByRole('heading', { name: 'Wedding Photo Collection' }).waitFor();
  await page.waitForTimeout(500);
  assert.deepEqual(await keptUploads(page), []);
  assert.equal(await page.locator('.upload-item').count(), 0);
  await context.close();
});

test('the signal drops for 10 s mid-upload: when it returns the upload carries on at once and finishes, no click', async () => {
  const big = await noiseJpeg('first-dance-big.jpg', 2400, 99);
  const size = fs.statSync(big).size;
  const { page, context } = await newPage(browser, { width: 390, height: 844 });
  const signal = await slowUplink(context, page);
  await page.goto(srv.url + '/live');
  await page.getByTestId('file-input').setInputFiles(big);
  await page.waitForResponse((r) => pathOf(r) === '/api/upload-chunk' && r.status() === 200, { timeout: 60_000 });

  await signal(false);
  const name = path.basename(big);
  const status = row(page, name).locator('.upload-item-status');
  await status.filter({ hasText: /Reconnecting\.\.\. \(\d\/5\)/ }).waitFor({ timeout: 10_000 });
  await page.waitForTimeout(10_000);
  const sent: number[] = [];
  page.on('request', (r) => r.url().includes('/api/upload-chunk') && sent.push(Date.now()));
  const back = Date.now();
  await signal(true);
  await waitStatus(page, name, 'complete', 120_000);
  // The next timed retry was then 5 s or more away: the 'online' event, not the timer, started it again.
  assert.ok(sent.length > 0 && sent[0] - back < 2500, `first request ${sent[0] - back} ms after the signal returned`);
  assert.equal(await page.locator('.toast', { hasText: 'Upload failed' }).count(), 0);
  await storedOnce([name], { [name]: size });
  await context.close();
});

test('eight files finishing together never show more than 3 toasts at once', async () => {
  const files = await Promise.all(Array.from({ length: 8 }, (_, i) => noiseJpeg(`table-${i}.jpg`, 120, i + 1)));
  const { page, context } = await newPage(browser, { width: 360, height: 740 });
  await page.goto(srv.url + '/live');
  await recordToasts(page);
  await page.getByTestId('file-input').setInputFiles(files);
  for (const f of files) await waitStatus(page, path.basename(f), 'complete');
  await page.getByTestId('upload-summary').filter({ hasText: 'All 8 files safely received' }).waitFor();
  const { maxToasts, toastTexts } = await recorded(page);
  assert.equal(toastTexts.filter((t) => t.includes('Upload successful!')).length, 8, 'every file still gets its toast');
  assert.equal(maxToasts, 3, 'never more than 3 on screen');
  await context.close();
});

test('a browser that will not keep files (no IndexedDB, as in some private modes) says so once and uploads as before', async () => {
  const { page, context } = await newPage(browser, { width: 360, height: 740 });
  await page.addInitScript(() => Object.defineProperty(window, 'indexedDB', { value: undefined }));
  await page.goto(srv.url + '/live');
  await recordToasts(page);
  const files = await Promise.all([noiseJpeg('private-1.jpg', 100, 501), noiseJpeg('private-2.jpg', 100, 502)]);
  await page.getByTestId('file-input').setInputFiles(files);
  for (const f of files) await waitStatus(page, path.basename(f), 'complete');
  await page.getByTestId('upload-summary').filter({ hasText: 'All 2 files safely received' }).waitFor();
  const notice = (await recorded(page)).toastTexts.filter((t) => t.includes('Please keep this page open'));
  assert.equal(notice.length, 1, 'said once, not once per file');
  assert.match(notice[0], /cannot keep your files if the page is closed or reloaded/);
  await context.close();
});

test('/live can be added to the home screen: a manifest Chromium reads without error, starting at /live, with real icons', async () => {
  const { page, context } = await newPage(browser, { width: 390, height: 844 });
  await page.goto(srv.url + '/live');
  const cdp = await context.newCDPSession(page);
  const { url, errors, data } = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[]; data?: string };
  // Made per request, so it carries the couple's names and the theme's colours.
  assert.match(url, /\/manifest\.webmanifest$/);
  assert.deepEqual(errors, []);
  const manifest = JSON.parse(data!);
  assert.equal(manifest.start_url, '/live');
  assert.equal(manifest.display, 'standalone');
  const res = await fetch(url);
  assert.match(res.headers.get('content-type') ?? '', /^application\/manifest\+json/);
  for (const size of [192, 512]) {
    const icon = manifest.icons.find((i: { sizes: string }) => i.sizes === `${size}x${size}`);
    const r = await fetch(new URL(icon.src, srv.url));
    assert.equal(r.status, 200);
    const meta = await sharp(Buffer.from(await r.arrayBuffer())).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', size, size]);
  }
  await context.close();
});
