import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { adminClient, type TestClient } from '../helpers/server.js';
import { publicIds } from './admin-helpers.js';
import { noise, scene, sendAndProcess, shifted } from './album-helpers.js';

/**
 * The couple clearing the approval queue in real Chromium: by keyboard alone, a stack of
 * similar shots kept best-first, highlights, and the settings for downloads and the wall.
 */
describe('the couple sorts the album in a browser', () => {
  const server = new ServerProcess();
  let browser: Browser;
  let page: Page;
  let admin: TestClient;
  const ids: string[] = [];

  before(async () => {
    [browser] = await Promise.all([launchBrowser(), server.start()]);
    admin = await adminClient(server.url);
    for (let i = 1; i <= 12; i++) ids.push(await sendAndProcess(server.url, await noise(), `keys-${String(i).padStart(2, '0')}.jpg`));
    ({ page } = await newPage(browser));
    await uiLogin(page, server.url);
  });
  after(async () => {
    await browser?.close();
    await server.stop();
  });

  const focusedId = () => page.locator('[data-testid="approval-card"][aria-current="true"]').getAttribute('data-photo-id');
  /** Presses a key and waits until the focus has moved on from the card it acted on. */
  async function press(key: string): Promise<string> {
    const was = (await focusedId())!;
    await page.keyboard.press(key);
    await page.waitForFunction((id) => document.querySelector('[data-testid="approval-card"][aria-current="true"]')?.getAttribute('data-photo-id') !== id, was);
    return was;
  }

  test('12 photos: 5 approved, 2 skipped and 1 rejected with the keyboard alone, the focus moving on by itself', async () => {
    await page.goto(server.url + '/admin/photos');
    await page.getByRole('button', { name: 'Approval Queue' }).click();
    await page.getByRole('heading', { name: /\(12 pending approval\)/ }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="approval-card"]').length === 12);
    // The keys, then the first card focused and shown large.
    await page.keyboard.press('?');
    await page.getByTestId('queue-keys-help').getByText('Approve the photo').waitFor();
    await page.keyboard.press('?');
    await page.getByTestId('queue-keys-help').waitFor({ state: 'detached' });
    assert.ok(await focusedId(), 'a card is focused from the start');
    const box = await page.locator('[data-testid="approval-card"][aria-current="true"]').boundingBox();
    const other = await page.locator('[data-testid="approval-card"]:not([aria-current])').first().boundingBox();
    assert.ok(box!.width > other!.width * 1.5, `the focused card is large (${box!.width} vs ${other!.width})`);

    const approved = [await press('a'), await press('a')];
    const skipped = [await press('s')];
    approved.push(await press('a'));
    await page.keyboard.press('r');
    await page.getByText('Press Enter to reject this photo, Escape to keep it.').waitFor();
    const rejected = await press('Enter');
    approved.push(await press('a'));
    skipped.push(await press('s'));
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    approved.push(await press('a'));

    await page.getByRole('heading', { name: /\(6 pending approval\)/ }).waitFor();
    await page.getByRole('button', { name: 'Show 2 Skipped' }).waitFor();
    assert.equal(await page.getByTestId('approval-card').count(), 4);
    assert.deepEqual((await publicIds(server.url)).sort(), approved.sort());
    assert.equal((await fetch(`${server.url}/api/photos/${rejected}/status`)).status, 404, 'rejected: deleted');
    for (const id of skipped) assert.equal((await admin.get(`/admin/api/photos?pending=true&per_page=100`)).body.photos.some((p: { id: string }) => p.id === id), true, 'skipped: still waiting');
    await screenshot(page, 'album-queue-keys');
  });

  test('similar shots wait as one stack, best first, flagged; "Keep this, hide the rest" approves it and hides the others', async () => {
    const burst = [
      await sendAndProcess(server.url, await scene('Canon_40D.jpg'), 'kiss-1.jpg'),
      await sendAndProcess(server.url, await scene('Canon_40D.jpg', shifted(2)), 'kiss-2.jpg'),
      await sendAndProcess(server.url, await scene('Canon_40D.jpg', (img, w) => img.blur(w * 0.01)), 'kiss-shaken.jpg'),
    ];
    await page.goto(server.url + '/admin/photos');
    await page.getByRole('button', { name: 'Approval Queue' }).click();
    const stack = page.getByTestId('approval-card').filter({ has: page.getByTestId('approval-stack') });
    await stack.getByText('3 similar photos').waitFor();
    const lead = await stack.getAttribute('data-photo-id');
    assert.notEqual(lead, burst[2], 'the shaken one is not in front');
    const picks = await stack.locator('.approval-stack-pick').evaluateAll((els) => els.map((e) => e.getAttribute('data-photo-id')));
    assert.deepEqual([lead, ...picks].sort(), [...burst].sort());
    const shaken = await admin.get(`/admin/api/photos?flagged=true&per_page=100`);
    assert.ok(shaken.body.photos.some((p: { id: string }) => p.id === burst[2]));
    // Bring the shaken one forward: its card says it is blurry.
    await stack.getByRole('button', { name: 'Show kiss-shaken.jpg first' }).click();
    await page.locator(`[data-testid="approval-card"][data-photo-id="${burst[2]}"]`).getByTestId('photo-flags').getByText('Blurry').waitFor();
    await page.getByRole('button', { name: `Show ${lead === burst[0] ? 'kiss-1' : 'kiss-2'}.jpg first` }).click();
    await screenshot(page, 'album-queue-stack');
    await page.locator(`[data-testid="approval-card"][data-photo-id="${lead}"]`).getByRole('button', { name: 'Keep this, hide the rest' }).click();
    await page.getByTestId('approval-stack').waitFor({ state: 'detached' });
    const visible = await publicIds(server.url);
    assert.ok(visible.includes(lead!));
    for (const id of burst.filter((b) => b !== lead)) {
      assert.ok(!visible.includes(id));
      assert.equal((await fetch(`${server.url}/api/photos/${id}/status`)).status, 200, 'hidden, never deleted');
      assert.equal(await page.locator(`[data-testid="approval-card"][data-photo-id="${id}"]`).count(), 0, 'out of the queue');
    }
  });

  test('the star makes a photo a highlight; settings turn guest downloads off and the wall to highlights only', async () => {
    await page.getByRole('button', { name: 'All Photos' }).click();
    const card = page.locator('[data-testid="photo-card"]:not(.is-hidden)').first();
    const id = await card.getAttribute('data-photo-id');
    await card.getByRole('button', { name: 'Highlight' }).click();
    await card.getByRole('button', { name: 'Highlight', pressed: true }).waitFor();
    const h = (await (await fetch(`${server.url}/api/photos?highlights=true`)).json()) as { photos: { id: string }[] };
    assert.deepEqual(h.photos.map((p) => p.id), [id]);

    await page.goto(server.url + '/admin/settings');
    const downloads = page.getByRole('switch', { name: 'Guests may download photos' });
    assert.equal(await downloads.isChecked(), true, 'on by default');
    await downloads.uncheck();
    await page.getByLabel('The wall shows').selectOption('highlights');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await page.getByText('Settings saved').first().waitFor();
    await page.waitForFunction(async () => {
      const s = await (await fetch('/api/settings')).json();
      return s.guest_downloads === false && s.wall_source === 'highlights';
    });
    assert.equal((await fetch(`${server.url}/api/photos/${id}/download`)).status, 404);
  });
});
