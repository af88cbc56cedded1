// A missing tool is named, not retried in silence (CONTRACT "Nothing acknowledged is ever lost"):
// the built server started with a PATH without ffmpeg and ffprobe names them in its log, on the
// dashboard's API and page, shows the video waiting for ffmpeg on its card in Chromium, and
// prepares the video after a restart with them on the PATH.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { adminClient, tempDir } from '../helpers/server.js';
import { makeVideo, tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

/** A folder for PATH holding every tool the server may run except ffmpeg and ffprobe. */
function pathWithoutFfmpeg(): string {
  const bin = tempDir('wedding-path-');
  for (const tool of ['nice', 'heif-convert']) {
    const found = (process.env.PATH ?? '').split(':').map((d) => path.join(d, tool)).find((p) => fs.existsSync(p));
    if (found) fs.symlinkSync(found, path.join(bin, tool));
  }
  return bin;
}

test('without ffmpeg on the PATH the site says so on the dashboard and the video waits; after a restart with ffmpeg it is prepared', async () => {
  const server = new ServerProcess(tempDir('wedding-e2e-'), { PATH: pathWithoutFfmpeg() });
  await server.start();
  const browser = await launchBrowser();
  try {
    assert.match(server.log, /Videos cannot be prepared: ffmpeg is not installed/);
    assert.match(server.log, /Videos cannot be prepared: ffprobe is not installed/);
    const video = await uploadFile(server.url, makeVideo('mp4'), 'first-dance.mp4');
    const photo = await uploadFile(server.url, await tinyImage('png', 21), 'cake.png');
    assert.equal(await waitForStatus(server.url, photo.body.photo_id), 'complete', 'photos go on');

    const admin = await adminClient(server.url);
    const dashboard = (await admin.get('/admin/api/dashboard')).body as { missing_tools: { tool: string; waiting_files: number }[] };
    assert.deepEqual(dashboard.missing_tools.map((m) => [m.tool, m.waiting_files]), [['ffmpeg', 1], ['ffprobe', 1]]);

    const { page } = await newPage(browser);
    await uiLogin(page, server.url);
    const warning = page.getByTestId('missing-tools');
    await warning.getByText('Videos cannot be prepared: ffmpeg is not installed').waitFor();
    assert.match(await warning.innerText(), /1 file is waiting for it/);
    await screenshot(page, 'dashboard-missing-ffmpeg');
    await page.getByRole('link', { name: 'Photos', exact: true }).click();
    const card = page.getByTestId('photo-card').filter({ hasText: 'first-dance.mp4' });
    await card.getByTestId('waiting-for-tool').getByText('Waiting for ffmpeg').waitFor();
    await screenshot(page, 'photos-waiting-for-ffmpeg');
    assert.equal((await fetch(`${server.url}/api/photos/${video.body.photo_id}/status`).then((r) => r.json())).status, 'processing');

    // ffmpeg installed, the site restarted: the video is prepared and the warning is gone.
    await server.stop();
    delete server.env.PATH;
    server.log = '';
    await server.start();
    assert.doesNotMatch(server.log, /cannot be prepared/);
    assert.equal(await waitForStatus(server.url, video.body.photo_id, 120_000), 'complete');
    const after = await adminClient(server.url);
    assert.deepEqual((await after.get('/admin/api/dashboard')).body.missing_tools, []);
    await page.reload();
    await page.getByRole('heading', { name: /Photo Management/ }).waitFor();
    assert.equal(await page.getByTestId('waiting-for-tool').count(), 0);
  } finally {
    await browser.close();
    await server.stop();
  }
});
