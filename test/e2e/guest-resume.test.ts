import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { newPage, screenshot, ServerProcess, startBrowserAndServer, stopBrowserAndServer } from '../helpers/browser.js';
import { adminClient } from '../helpers/server.js';
import { adminPhotos, makeVideo, row, waitStatus } from './guest-helpers.js';

let browser: Browser;
let srv: ServerProcess;
before(async () => {
  [browser, srv] = await startBrowserAndServer();
});
after(() => stopBrowserAndServer(browser, srv));

test('the server dies mid-upload and comes back: the item shows Reconnecting... and finishes once, intact', async () => {
  const big = makeVideo('speeches.mp4', { seconds: 10, size: '1280x720', lossless: true });
  const size = fs.statSync(big).size;
  assert.ok(size > 2 * 5_242_880, `test file is ${size} bytes`);
  const { page, context } = await newPage(browser);
  // A slow uplink, like a phone at the venue, so the crash lands in the middle of the transfer.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 2 * 1024 * 1024 });
  const offsets: string[] = [];
  page.on('request', (r) => r.url().includes('/api/upload-chunk/offset') && offsets.push(r.url()));
  await page.goto(srv.url + '/live');
  await page.getByTestId('file-input').setInputFiles(big);
  const bar = row(page, 'speeches.mp4').getByRole('progressbar');
  await page.waitForFunction(
    (el) => Number(el!.getAttribute('aria-valuenow')) >= 25,
    await bar.elementHandle(),
    { timeout: 60_000, polling: 100 },
  );
  const before = Number(await bar.getAttribute('aria-valuenow'));
  assert.ok(before < 100, `still uploading at ${before}%`);

  await srv.stop('SIGKILL');
  const status = row(page, 'speeches.mp4').locator('.upload-item-status');
  await status.filter({ hasText: /Reconnecting\.\.\. \(\d\/5\)/ }).waitFor({ timeout: 20_000 });
  await screenshot(page, 'guest-upload-reconnecting');
  await srv.start(); // same port, same DATA_DIR

  await waitStatus(page, 'speeches.mp4', 'complete', 120_000);
  assert.equal(await page.locator('.toast', { hasText: 'Upload failed' }).count(), 0);
  assert.ok(offsets.length >= 1, 'asked the server where to resume');
  await screenshot(page, 'guest-upload-resumed');

  const admin = await adminClient(srv.url);
  const stored = (await adminPhotos(admin)).filter((p) => p.original_filename === 'speeches.mp4');
  assert.equal(stored.length, 1, 'stored once');
  assert.equal(stored[0].file_size, size, 'every byte arrived');
  await context.close();
});
