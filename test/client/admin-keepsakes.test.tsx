// The keepsakes page (/admin/keepsakes), rendered in happy-dom against a scripted /admin/api:
// the bride makes a film and a book, shares the film, sees progress until it is ready, previews,
// downloads and deletes; family only watches and downloads; the nav links to the page.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, cleanup, click, control, controls, dialogs, hasText, meFor, renderAdmin, type as typeInto, waitFor, type RoleName } from '../helpers/admin-render.js';
import { dashboard } from './admin-fixtures.js';

afterEach(cleanup);

const base = { created_at: '2027-06-12T18:00:00.000Z', finished_at: null, file_size: null, url: null, error: null, title: null, music_id: null };
const film = (over: object = {}) => ({ ...base, id: 'f1', kind: 'film', status: 'ready', progress: 100, file_size: 48 * 1024 * 1024, url: '/admin/api/keepsakes/f1/file', source: 'highlights', seconds: 180, paper: null, ...over });
const book = (over: object = {}) => ({ ...base, id: 'b1', kind: 'book', status: 'making', progress: 40, source: 'visible', seconds: null, paper: 'A4', ...over });

function serve(role: RoleName, list: object[]) {
  let items = list;
  let shared = false;
  api.reset();
  api.on('GET /admin/api/me', { body: meFor(role) });
  api.on('GET /admin/api/keepsakes', () => ({ body: { success: true, keepsakes: items, music: [{ id: 'm1', original_name: 'our-song.m4a', file_size: 4_000_000, duration: 200 }], share_film: shared } }));
  api.on('POST /admin/api/keepsakes', (call) => {
    const b = call.body as { kind: string; seconds?: number };
    const k = b.kind === 'film' ? film({ id: 'f2', status: 'queued', progress: 0, url: null, file_size: null, ...b }) : book({ id: 'b2', status: 'queued', progress: 0, ...b });
    items = [k, ...items];
    return { status: 202, body: { success: true, keepsake: k } };
  });
  api.on('PUT /admin/api/keepsakes/share', (call) => {
    shared = (call.body as { share_film: boolean }).share_film;
    return { body: { success: true, share_film: shared } };
  });
  api.on('DELETE /admin/api/keepsakes/f1', () => {
    items = items.filter((k) => (k as { id: string }).id !== 'f1');
    return { body: { success: true } };
  });
  return { set: (next: object[]) => (items = next) };
}

const label = (page: HTMLElement, text: string) => {
  const l = [...page.querySelectorAll('label')].find((x) => x.textContent!.replace(/\s+/g, ' ').trim() === text);
  if (!l) throw new Error(`no label "${text}"`);
  return (l.htmlFor ? document.getElementById(l.htmlFor) : l.querySelector('input')) as HTMLInputElement;
};

test('the bride makes a film (length, source, her music) and a book (paper), and shares the film', async () => {
  serve('bride', [film()]);
  const page = await renderAdmin('/admin/keepsakes');
  await waitFor(() => hasText('Film, 3:00', page), 'the list');
  assert.ok(hasText('Ready, 48', page));
  const video = page.querySelector('video')!;
  assert.equal(video.getAttribute('src'), '/admin/api/keepsakes/f1/file', 'a film previews in a video element');
  assert.equal(control('Download', page).getAttribute('href'), '/admin/api/keepsakes/f1/file?download=1');

  // A 90-second film from the most loved photos with the couple's track.
  await click(label(page, 'Most loved (with a guest’s heart)'));
  const seconds = label(page, 'Length in seconds (60–600)');
  assert.equal(seconds.min, '60');
  assert.equal(seconds.max, '600');
  await typeInto(seconds, '30');
  assert.ok((control('Make the film', page) as HTMLButtonElement).disabled, 'under 60 s cannot be asked for');
  await typeInto(seconds, '90');
  const music = label(page, 'Music') as unknown as HTMLSelectElement;
  assert.deepEqual([...music.options].map((o) => o.textContent), ['No music', 'our-song.m4a (3:20)']);
  music.value = 'm1';
  music.dispatchEvent(new Event('change', { bubbles: true }));
  await typeInto(label(page, 'Title (optional)'), 'Anna & Ben');
  assert.ok(label(page, 'Add your own music').type === 'file');
  await click(control('Make the film', page));
  assert.deepEqual(api.called('POST /admin/api/keepsakes').at(-1)!.body, { kind: 'film', source: 'loved', seconds: 90, music_id: 'm1', title: 'Anna & Ben' });
  assert.equal(page.querySelector('[data-testid="keepsakes-status"]')!.textContent, 'Added to the queue. It is made once the guests’ uploads are processed.');
  await waitFor(() => hasText('Film, 1:30', page) && hasText('Waiting its turn', page), 'the new film in the list');

  // A book on US letter.
  await click(label(page, 'A photo book (PDF)'));
  assert.ok(!page.querySelector('input[type="number"]'), 'a book has no length');
  await click(label(page, 'US letter'));
  await click(control('Make the book', page));
  assert.deepEqual(api.called('POST /admin/api/keepsakes').at(-1)!.body, { kind: 'book', source: 'loved', paper: 'letter', title: 'Anna & Ben' });

  const share = page.querySelector<HTMLInputElement>('input[role="switch"]')!;
  assert.equal(share.parentElement!.textContent, 'Show the film to guests on the gallery page');
  assert.equal(share.checked, false);
  await click(share);
  assert.deepEqual(api.called('PUT /admin/api/keepsakes/share').at(-1)!.body, { share_film: true });
  assert.equal(share.checked, true);
  assert.equal(page.querySelector('[data-testid="keepsakes-status"]')!.textContent, 'The film is now shown to guests.');
});

test('progress is asked for again until the book is ready, then it opens as a PDF; delete asks first', async () => {
  const s = serve('admin', [book(), film()]);
  const page = await renderAdmin('/admin/keepsakes');
  await waitFor(() => hasText('Being made: 40%', page), 'the progress');
  assert.equal(page.querySelector('progress')!.getAttribute('value'), '40');
  const before = api.called('GET /admin/api/keepsakes').length;
  s.set([book({ status: 'ready', progress: 100, url: '/admin/api/keepsakes/b1/file', file_size: 9_000_000 }), film()]);
  for (let i = 0; i < 40 && !hasText('Open the PDF', page); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(api.called('GET /admin/api/keepsakes').length > before, 'polled');
  assert.equal(control('Open the PDF', page).getAttribute('href'), '/admin/api/keepsakes/b1/file');
  assert.ok(!page.querySelector('progress'));
  const calls = api.called('GET /admin/api/keepsakes').length;
  await new Promise((r) => setTimeout(r, 3500));
  assert.equal(api.called('GET /admin/api/keepsakes').length, calls, 'no polling once nothing is being made');

  dialogs.confirmAnswer = false;
  await click(controls('Delete', page)[1]);
  assert.equal(api.called('DELETE /admin/api/keepsakes/f1').length, 0, 'not without a yes');
  dialogs.confirmAnswer = true;
  await click(controls('Delete', page)[1]);
  assert.equal(dialogs.confirms.at(-1), 'Delete this keepsake? Its file is deleted too.');
  assert.equal(api.called('DELETE /admin/api/keepsakes/f1').length, 1);
  await waitFor(() => !hasText('Film, 3:00', page), 'the film gone');
});

test('family watches and downloads, but sees no form, no share switch and no delete; a refused request says why', async () => {
  serve('family', [film()]);
  const page = await renderAdmin('/admin/keepsakes');
  await waitFor(() => hasText('Film, 3:00', page), 'the list');
  assert.ok(page.querySelector('video'));
  assert.ok(control('Download', page));
  assert.equal(controls('Delete', page).length, 0);
  assert.ok(!page.querySelector('form') && !page.querySelector('input[role="switch"]'));
  assert.ok(hasText('The couple and admins make, delete and share keepsakes; you can watch and download them.', page));

  serve('groom', [film()]);
  api.on('POST /admin/api/keepsakes', { status: 400, body: { success: false, error: 'No photo is highlighted yet. Highlight some photos first, or use all visible photos.' } });
  const again = await renderAdmin('/admin/keepsakes');
  await waitFor(() => hasText('Film, 3:00', again), 'the list');
  await click(control('Make the film', again));
  assert.equal(again.querySelector('[data-testid="keepsakes-status"]')!.textContent, 'No photo is highlighted yet. Highlight some photos first, or use all visible photos.');
});

test('the admin navigation links to the keepsakes page', async () => {
  serve('family', []);
  api.on('GET /admin/api/dashboard', { body: dashboard('family') });
  const page = await renderAdmin('/admin/dashboard');
  await waitFor(() => controls('Keepsakes').length > 0, 'the nav');
  assert.equal(control('Keepsakes').getAttribute('href'), '/admin/keepsakes');
});
