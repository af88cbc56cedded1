import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { FAKE_MEDIA, launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { TestClient } from '../helpers/server.js';

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

test('a guest at 360 px writes and records a voice note on /guestbook, the couple approve it in the admin panel, the wall shows it and the guest hears it', async () => {
  const { page, errors } = await newPage(browser, { width: 360, height: 740 });
  await page.goto(srv.url + '/live');
  // Reached from the guest pages' footer.
  await page.getByRole('link', { name: 'Guestbook' }).click();
  await page.waitForURL('**/guestbook');
  await page.getByLabel('Your message').fill('All our love on your big day!');
  await page.getByLabel('Your name (optional)').fill('Tante Emma');

  // Chromium's fake microphone: a beep, recorded by the lazily loaded recorder.
  await page.getByRole('button', { name: 'Record a voice note' }).click();
  const countdown = page.getByTestId('voice-countdown');
  await countdown.waitFor({ timeout: 10_000 });
  assert.match(await countdown.innerText(), /Recording\.\.\. [12]:\d\d left/);
  await page.waitForTimeout(2500);
  await page.getByRole('button', { name: 'Stop recording' }).click();
  const preview = page.getByTestId('voice-preview');
  await preview.waitFor();
  // Replayed before sending: the recording plays in the page.
  await page.waitForFunction(() => (document.querySelector('[data-testid="voice-preview"]') as HTMLAudioElement).readyState >= 1, undefined, { timeout: 10_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `nothing wider than the phone (${overflow} px)`);
  await screenshot(page, 'guestbook-page-360');

  await page.getByRole('button', { name: 'Send message' }).click();
  await page.getByText('Thank you! Your message will appear once it has been approved.').waitFor();
  // Their own message, not yet shown to others, with a way to delete it.
  const mine = page.locator('section[aria-labelledby="gb-mine"] .guestbook-entry');
  await mine.waitFor();
  assert.match(await mine.innerText(), /All our love on your big day!/);
  assert.match(await mine.innerText(), /Waiting for approval/);
  const id = await mine.getAttribute('data-entry-id');
  assert.ok(id);
  const stored = (await admin.json('GET', '/admin/api/guestbook?status=pending')).body as { entries: { id: string; name: string; audio_status: string }[] };
  const entry = stored.entries.find((e) => e.id === id);
  assert.equal(entry?.name, 'Tante Emma');
  assert.notEqual(entry?.audio_status, 'none', 'the voice note came with the message');

  // The couple approve it on the admin panel's guestbook page.
  const a = await newPage(browser, { width: 1280, height: 900 });
  await uiLogin(a.page, srv.url);
  await a.page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Guestbook' }).click();
  await a.page.waitForURL('**/admin/guestbook');
  const card = a.page.locator(`.guestbook-entry[data-entry-id="${id}"]`);
  await card.waitFor();
  await card.getByRole('button', { name: 'Approve' }).click();
  await a.page.getByText('0 messages waiting for approval').waitFor();

  // The wall shows it as a slide of its own.
  const w = await newPage(browser, { width: 1280, height: 720 });
  await w.page.goto(srv.url + '/wall?interval=2000');
  const slide = w.page.locator(`.wall-slide[data-message-id="guestbook:${id}"]`);
  await slide.first().waitFor({ timeout: 30_000 });
  assert.match(await slide.first().innerText(), /All our love on your big day!/);

  // Once its playable copy is made, the guest's page plays it.
  const deadline = Date.now() + 60_000;
  for (;;) {
    await page.reload();
    // The approved message is listed once the page has fetched the messages; then its player is there or not yet.
    const listed = page.locator(`section[aria-labelledby="gb-messages"] .guestbook-entry[data-entry-id="${id}"]`);
    await listed.waitFor();
    const audio = listed.locator('audio');
    if ((await audio.count()) > 0) {
      await audio.evaluate((el: HTMLAudioElement) => {
        el.preload = 'auto';
        el.load();
      });
      await page.waitForFunction((sel) => (document.querySelector(sel) as HTMLAudioElement).readyState >= 2, `.guestbook-entry[data-entry-id="${id}"] audio`, { timeout: 15_000 });
      break;
    }
    assert.ok(Date.now() < deadline, 'the voice note became playable');
    await page.waitForTimeout(1000);
  }
  assert.deepEqual([...errors, ...a.errors, ...w.errors], []);
  await Promise.all([page.context().close(), a.context.close(), w.context.close()]);
});
