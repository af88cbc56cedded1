import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { FAKE_MEDIA, launchBrowser, newPage, screenshot, ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { waitProcessed } from './wall-helpers.js';

let browser: Browser;
let srv: ServerProcess;
let admin: TestClient;

before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(FAKE_MEDIA), new ServerProcess().start()]);
  admin = new TestClient(srv.url);
  await admin.login();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

/** POST /api/guestbook as a guest would, then approved by the admin; its id. */
async function approvedMessage(message: string, name?: string): Promise<string> {
  const form = new FormData();
  form.append('message', message);
  if (name) form.append('name', name);
  const res = await fetch(`${srv.url}/api/guestbook`, { method: 'POST', body: form });
  const body = (await res.json()) as { entry: { id: string } };
  assert.equal(res.status, 201);
  assert.equal((await admin.post(`/admin/api/guestbook/${body.entry.id}/approve`)).status, 200);
  return body.entry.id;
}

/** A photo sent for a challenge, processed and approved; its id. */
async function challengePhoto(file: string, challengeId: string): Promise<string> {
  const form = new FormData();
  form.append('session_id', 'wall');
  form.append('challenge_id', challengeId);
  form.append('file', new Blob([new Uint8Array(fs.readFileSync(sample(file)))]), file);
  const res = await fetch(`${srv.url}/api/upload`, { method: 'POST', body: form });
  const id = ((await res.json()) as { photo_id: string }).photo_id;
  await waitProcessed(srv.url, id);
  assert.equal((await admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
  return id;
}

/** Waits for the crossfade to end (an animation cut short by the next slide counts as ended). */
const settled = (page: Page) => page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));

test('the wall shows a photo with its challenge as the caption, and approved messages as slides of their own (no sound)', async () => {
  assert.equal((await admin.put('/admin/api/settings', { challenges: [{ id: 'oldest', title: 'A photo with the oldest guest' }] })).status, 200);
  const photo = await challengePhoto('Canon_40D.jpg', 'oldest');
  const { page, errors } = await newPage(browser, { width: 1280, height: 720 });
  await page.goto(srv.url + '/wall?interval=4000');
  const slide = page.locator(`.wall-slide:not(.leaving)[data-photo-id="${photo}"]`);
  await slide.waitFor({ timeout: 10_000 });
  assert.equal(await slide.getByTestId('wall-challenge').innerText(), 'A photo with the oldest guest');

  // Approved while the wall runs: it comes up next, as its own slide, with the guest's name.
  const id = await approvedMessage('To the happy couple:\nmay every day feel like today!', 'Anna <i>');
  const message = page.locator(`.wall-slide:not(.leaving)[data-message-id="guestbook:${id}"]`);
  await message.waitFor({ timeout: 8000 });
  assert.equal(await message.locator('p').innerText(), 'To the happy couple:\nmay every day feel like today!');
  assert.equal(await message.getByTestId('wall-message-name').innerText(), '— Anna <i>', 'names are text, never markup');
  assert.equal(await page.locator('audio, video').count(), 0, 'the wall plays no sound');
  await settled(page);
  await screenshot(page, 'wall-guestbook-message');

  // Both stay in the rotation: the photo, then the message again.
  await slide.waitFor({ timeout: 15_000 });
  await message.waitFor({ timeout: 15_000 });

  // Hidden: off the wall at once.
  assert.equal((await admin.post(`/admin/api/guestbook/${id}/hide`)).status, 200);
  await page.locator(`[data-message-id="guestbook:${id}"]`).waitFor({ state: 'detached', timeout: 5000 });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a wall opened later finds the approved messages among the photos', async () => {
  const id = await approvedMessage('We love you both!');
  const { page, errors } = await newPage(browser, { width: 1280, height: 720 });
  await page.goto(srv.url + '/wall?interval=1500');
  await page.locator(`[data-message-id="guestbook:${id}"]`).waitFor({ timeout: 15_000 });
  await page.locator('.wall-slide img.wall-media').first().waitFor({ timeout: 15_000 });
  assert.deepEqual(errors, []);
  await page.context().close();
});

test("a voice note recorded by Chromium's MediaRecorder (fake microphone) is accepted and plays back after processing", async () => {
  const { page, errors } = await newPage(browser, { width: 360, height: 740 });
  await page.goto(srv.url + '/');
  // What the guestbook page does: record from the microphone, then send the recording as it came.
  const sent = await page.evaluate(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    const type = ['audio/webm;codecs=opus', 'audio/mp4', 'audio/ogg;codecs=opus'].find((t) => MediaRecorder.isTypeSupported(t)) ?? '';
    const rec = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const parts: Blob[] = [];
    rec.ondataavailable = (e) => parts.push(e.data);
    const stopped = new Promise((r) => (rec.onstop = r));
    rec.start(250);
    await new Promise((r) => setTimeout(r, 3000));
    rec.stop();
    await stopped;
    stream.getTracks().forEach((t) => t.stop());
    const blob = new Blob(parts, { type: rec.mimeType });
    const form = new FormData();
    form.append('message', 'Recorded in the browser');
    form.append('name', 'Chromium');
    form.append('audio', blob, 'voice-note');
    const res = await fetch('/api/guestbook', { method: 'POST', body: form });
    return { status: res.status, body: await res.json(), type: rec.mimeType, bytes: blob.size };
  });
  assert.equal(sent.status, 201, JSON.stringify(sent));
  assert.ok(sent.bytes > 1000, `a real recording (${sent.bytes} bytes of ${sent.type})`);
  const id = sent.body.entry.id;
  assert.equal((await admin.post(`/admin/api/guestbook/${id}/approve`)).status, 200);

  // Processing makes the copy every browser plays; then the page plays it like any guest's would.
  let entry: any;
  const deadline = Date.now() + 90_000;
  while (!(entry = (await new TestClient(srv.url).get('/api/guestbook')).body.entries.find((e: any) => e.id === id && e.audio_url))) {
    assert.ok(Date.now() < deadline, 'the voice note was prepared');
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(entry.duration > 2 && entry.duration < 4.5, `its length (${entry.duration} s) is the recording's, read from the file`);
  const played = await page.evaluate(async (url) => {
    const audio = new Audio();
    audio.preload = 'auto';
    audio.src = url;
    await new Promise<void>((resolve, reject) => {
      audio.oncanplay = () => resolve();
      audio.onerror = () => reject(new Error(`media error ${audio.error?.code}`));
      setTimeout(() => resolve(), 15_000);
    });
    return { readyState: audio.readyState, duration: audio.duration, canPlay: audio.canPlayType('audio/mp4; codecs="mp4a.40.2"') };
  }, entry.audio_url);
  assert.ok(played.readyState >= 2, `the copy plays (readyState ${played.readyState}, AAC: "${played.canPlay}")`);
  assert.ok(Math.abs(played.duration - entry.duration) < 0.5, `${played.duration} s in the browser`);
  assert.deepEqual(errors, []);
});
