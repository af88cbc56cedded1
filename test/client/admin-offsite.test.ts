// The settings page's "Off-site copy" card and the dashboard's line about it, rendered in
// happy-dom against a scripted /admin/api: an admin sees and sets the bucket (the secret never
// shown, fields the environment fixes read-only, the test's sentence, the form's problems);
// other roles never see the card; every role reads the one line on the dashboard.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { OffsiteFormField, OffsiteResponse, OffsiteStatusView } from '../../common/offsite-types.js';
import { defaultSettings } from '../../server/settings/settings.defaults.js';
import { api, cleanup, click, control, hasText, meFor, renderAdmin, type as typeInto, waitFor, type RoleName } from '../helpers/admin-render.js';
import { dashboard } from './admin-fixtures.js';

afterEach(cleanup);

const SECRET = 'wJalrXUtnFEMI-never-shown';
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

function status(over: Partial<OffsiteStatusView> = {}): OffsiteStatusView {
  return {
    configured: true,
    state: 'behind',
    files_total: 3000,
    files_copied: 2981,
    bytes_total: 3 * 1024 ** 3,
    bytes_copied: 2.9 * 1024 ** 3,
    last_copied_at: minutesAgo(1),
    last_error: null,
    database: { last_copy_at: minutesAgo(3) },
    serve: false,
    keep_local: 'all',
    ...over,
  };
}

function offsite(over: { status?: Partial<OffsiteStatusView>; from_env?: OffsiteFormField[] } = {}): OffsiteResponse {
  return {
    success: true,
    ...status(over.status),
    settings: {
      endpoint: 'https://s3.eu-central-003.backblazeb2.com',
      region: 'eu-central-003',
      bucket: 'emma-and-james',
      prefix: '',
      access_key_id: '003abc',
      force_path_style: true,
      serve: false,
      keep_local: 'all',
      public_url: '',
      has_secret: true,
      from_env: over.from_env ?? [],
    },
  };
}

function serve(role: RoleName, answer: OffsiteResponse = offsite()) {
  api.reset();
  api.on('GET /admin/api/me', { body: meFor(role) });
  api.on('GET /admin/api/settings', { body: { success: true, settings: defaultSettings(), themes: [], accent_color_used: null, cover_url: null } });
  // What the server answers a non-admin: the status, never the settings.
  const { settings: _s, ...statusOnly } = answer;
  api.on('GET /admin/api/offsite', { body: role === 'admin' ? answer : statusOnly });
}

const card = () => document.querySelector<HTMLElement>('section[aria-labelledby="st-offsite"]');
const input = (id: string) => document.getElementById(id) as HTMLInputElement;
const byLabel = (text: string): HTMLInputElement | HTMLSelectElement => {
  const label = [...document.querySelectorAll('label')].find((l) => (l.textContent ?? '').trim() === text);
  assert.ok(label, `a label "${text}"`);
  const id = label.getAttribute('for');
  return (id ? document.getElementById(id) : label.querySelector('input')) as HTMLInputElement;
};

async function openCard(role: RoleName = 'admin', answer?: OffsiteResponse) {
  serve(role, answer);
  const page = await renderAdmin('/admin/settings');
  await waitFor(() => !!card()?.querySelector('form'), 'the off-site card');
  return page;
}

test('admin: the card shows the status in words and every field by its label; the secret is never in the page', async () => {
  const page = await openCard();
  const c = card()!;
  assert.ok(hasText('Off-site copy', c));
  assert.ok(hasText('Copying: some files are not in the bucket yet.', c));
  assert.ok(hasText('2,981 of 3,000 files copied', c));
  assert.ok(hasText('Last copy of the database:', c));
  assert.equal((byLabel('Endpoint') as HTMLInputElement).value, 'https://s3.eu-central-003.backblazeb2.com');
  assert.equal((byLabel('Bucket') as HTMLInputElement).value, 'emma-and-james');
  assert.equal((byLabel('Region') as HTMLInputElement).value, 'eu-central-003');
  for (const l of ['Prefix (optional)', 'Key ID', 'Public address for a CDN (optional)', 'Keep on this server', 'Provider', 'Path-style addressing', 'Serve photos from the bucket']) byLabel(l);
  const secret = byLabel('Secret key') as HTMLInputElement;
  assert.equal(secret.type, 'password');
  assert.equal(secret.value, '', 'the saved secret is not put in the field');
  assert.equal(secret.placeholder, 'Saved');
  assert.equal(document.getElementById(secret.getAttribute('aria-describedby')!)?.textContent, 'A secret key is saved and never shown. Leave this field empty to keep it.');
  assert.equal(page.innerHTML.includes(SECRET), false);
});

test('admin: picking a preset fills endpoint, region and path style; saving sends the form without an empty secret and shows the problems one by one', async () => {
  await openCard();
  const preset = byLabel('Provider') as unknown as HTMLSelectElement;
  const { act } = await import('react');
  await act(async () => {
    preset.value = 's3';
    preset.dispatchEvent(new Event('change', { bubbles: true }));
  });
  assert.equal(input('st-offsite-endpoint').value, 'https://s3.<region>.amazonaws.com');
  assert.equal(input('st-offsite-region').value, 'eu-central-1');
  assert.equal(input('st-offsite-path-style').checked, false);

  // An endpoint still holding <region> is not sent.
  await click(control('Save', card()!));
  assert.equal(api.called('PUT /admin/api/offsite').length, 0);
  assert.ok(hasText('Replace the part in angle brackets in the endpoint with your own region or account ID.', card()!));

  await typeInto(input('st-offsite-endpoint'), 'https://s3.eu-central-1.amazonaws.com');
  await typeInto(input('st-offsite-bucket'), 'Not A Bucket');
  api.on('PUT /admin/api/offsite', {
    status: 400,
    body: {
      success: false,
      code: 'invalid_input',
      error: 'A bucket name has 3 to 63 lowercase letters. The public address must start with https:// or http://.',
      problems: ['A bucket name has 3 to 63 lowercase letters, digits, dots or hyphens, and starts and ends with a letter or digit.', 'The public address must start with https:// or http://.'],
    },
  });
  await click(control('Save', card()!));
  const sent = api.called('PUT /admin/api/offsite')[0].body as Record<string, unknown>;
  assert.equal(sent.endpoint, 'https://s3.eu-central-1.amazonaws.com');
  assert.equal(sent.region, 'eu-central-1');
  assert.equal(sent.force_path_style, false);
  assert.equal(sent.bucket, 'Not A Bucket');
  assert.equal('secret_access_key' in sent, false, 'an empty secret keeps the saved one');
  const alert = card()!.querySelector('[role="alert"]')!;
  assert.deepEqual(
    [...alert.querySelectorAll('p')].map((p) => p.textContent),
    ['A bucket name has 3 to 63 lowercase letters, digits, dots or hyphens, and starts and ends with a letter or digit.', 'The public address must start with https:// or http://.'],
  );

  // A new secret typed in is sent, then the field is empty again.
  api.on('PUT /admin/api/offsite', { body: offsite({ status: { state: 'ok', files_copied: 3000 } }) });
  await typeInto(input('st-offsite-secret'), 'a-new-secret');
  await click(control('Save', card()!));
  assert.equal((api.called('PUT /admin/api/offsite')[1].body as Record<string, unknown>).secret_access_key, 'a-new-secret');
  assert.equal(input('st-offsite-secret').value, '');
  assert.ok(hasText('Up to date: every file is in the bucket.', card()!));
  assert.equal(card()!.querySelector('[role="alert"]'), null);
});

test('admin: fields the environment fixes are read-only with the note, and are not sent', async () => {
  await openCard('admin', offsite({ from_env: ['endpoint', 'bucket', 'secret_access_key', 'serve'] }));
  for (const [id, name] of [['st-offsite-endpoint', 'S3_ENDPOINT'], ['st-offsite-bucket', 'S3_BUCKET'], ['st-offsite-secret', 'S3_SECRET_ACCESS_KEY']] as const) {
    const el = input(id);
    assert.equal(el.readOnly, true, `${id} read-only`);
    assert.equal(document.getElementById(el.getAttribute('aria-describedby')!)?.textContent, `Set by the server's configuration (${name}); it cannot be changed here.`);
  }
  assert.equal(input('st-offsite-serve').disabled, true);
  assert.equal(input('st-offsite-region').readOnly, false);
  api.on('PUT /admin/api/offsite', { body: offsite({ from_env: ['endpoint', 'bucket', 'secret_access_key', 'serve'] }) });
  await typeInto(input('st-offsite-region'), 'eu-central-002');
  await click(control('Save', card()!));
  const sent = api.called('PUT /admin/api/offsite')[0].body as Record<string, unknown>;
  assert.equal(sent.region, 'eu-central-002');
  for (const k of ['endpoint', 'bucket', 'secret_access_key', 'serve']) assert.equal(k in sent, false, `${k} is the environment's`);
});

test('admin: Test connection sends the form and shows the answer\'s sentence, or the success sentence', async () => {
  await openCard();
  api.on('POST /admin/api/offsite/test', { body: { success: true, ok: false, problem: 'wrong_key', message: 'The bucket did not accept the key. Check the key ID and the secret key.' } });
  await typeInto(input('st-offsite-access_key_id'), '003other');
  await click(control('Test connection', card()!));
  assert.equal((api.called('POST /admin/api/offsite/test')[0].body as Record<string, unknown>).access_key_id, '003other');
  const result = document.querySelector('[data-testid="offsite-test-result"]')!;
  assert.equal(result.getAttribute('aria-live'), 'polite');
  assert.ok(hasText('The bucket did not accept the key. Check the key ID and the secret key.', result as Element));

  api.on('POST /admin/api/offsite/test', { body: { success: true, ok: true } });
  await click(control('Test connection', card()!));
  assert.ok(hasText('The connection works: a small test file was written to the bucket, read back and deleted.', result as Element));
  assert.equal(hasText('did not accept the key', result as Element), false);
});

test('admin: a failing copy says so on the card, with the problem in words', async () => {
  await openCard('admin', offsite({ status: { state: 'failing', last_error: { code: 'unreachable', message: 'The bucket\'s address cannot be reached. Check the endpoint, and that this server is online.', at: minutesAgo(2) } } }));
  assert.ok(hasText('Copying is not working right now.', card()!));
  assert.ok(hasText("The bucket's address cannot be reached.", card()!));
});

for (const role of ['family', 'bride', 'groom'] as const) {
  test(`${role} does not see the off-site card`, async () => {
    serve(role);
    const page = await renderAdmin('/admin/settings');
    await waitFor(() => hasText('Settings', page) || hasText('Access denied', page) || page.textContent!.length > 0, 'the page');
    assert.equal(card(), null);
    assert.equal(hasText('Off-site copy', page), false);
    assert.equal(api.called('PUT /admin/api/offsite').length + api.called('POST /admin/api/offsite/test').length, 0);
  });
}

test('the dashboard: one line for every role once configured, the problem while failing, nothing without a bucket', async () => {
  for (const role of ['admin', 'family'] as const) {
    api.reset();
    api.on('GET /admin/api/me', { body: meFor(role) });
    api.on('GET /admin/api/dashboard', { body: { ...dashboard(role), offsite: status() } });
    const page = await renderAdmin('/admin/dashboard');
    await waitFor(() => !!page.querySelector('[data-testid="offsite-line"]'), `${role}: the off-site line`);
    assert.equal(page.querySelector('[data-testid="offsite-line"]')!.textContent, 'Off-site copy: 2,981 of 3,000 files, database 3 minutes ago');
  }

  api.on('GET /admin/api/dashboard', {
    body: { ...dashboard('family'), offsite: status({ state: 'failing', database: { last_copy_at: null }, last_error: { code: 'wrong_key', message: 'The bucket did not accept the key. Check the key ID and the secret key.', at: minutesAgo(1) } }) },
  });
  let page = await renderAdmin('/admin/dashboard');
  await waitFor(() => !!page.querySelector('[data-testid="offsite-line"]'), 'the failing line');
  assert.equal(
    page.querySelector('[data-testid="offsite-line"]')!.textContent,
    'Off-site copy: 2,981 of 3,000 files, database not copied yet Copying is not working. The bucket did not accept the key. Check the key ID and the secret key.',
  );

  api.on('GET /admin/api/dashboard', { body: dashboard('family') });
  page = await renderAdmin('/admin/dashboard');
  await waitFor(() => hasText('Total Photos', page), 'the dashboard');
  assert.equal(page.querySelector('[data-testid="offsite-line"]'), null);
});
