import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { NO_ROOM } from '../../server/storage/storage.js';
import { adminClient, startTestServer } from '../helpers/server.js';
import { tinyImage } from '../helpers/uploads.js';

/**
 * API errors in the reader's language, checked word for word against the catalogues' own
 * sentences (not against whatever the catalogue holds): a guest's phone in French gets French,
 * with the same status and code an English phone gets.
 */
let s: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  // A free-space floor larger than any disk: every new upload is refused with 507.
  s = await startTestServer({ MIN_FREE_MB: String(1024 * 1024 * 1024) });
});
after(() => s.close());

async function upload(headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('session_id', 'sess-lang');
  form.append('file', new Blob([new Uint8Array(await tinyImage('jpeg', 5))]), 'plein.jpg');
  const res = await fetch(`${s.url}/api/upload`, { method: 'POST', body: form, headers });
  return { status: res.status, body: await res.json() };
}

test('a full disk answers a French phone in French: 507 storage_full, "Il n’y a plus de place…"', async () => {
  const french = await upload({ 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' });
  assert.equal(french.status, 507);
  assert.deepEqual(french.body, {
    success: false,
    error: 'Il n’y a plus de place pour de nouvelles photos. Merci de prévenir les mariés.',
    code: 'storage_full',
  });
  // The same refusal for an English phone, in SPEC's English; the code never changes.
  const english = await upload({ 'accept-language': 'en-GB' });
  assert.deepEqual([english.status, english.body], [507, { success: false, error: NO_ROOM, code: 'storage_full' }]);
  // The cookie the language switcher sets wins over the browser's languages.
  const chosen = await upload({ cookie: 'wedding_lang=es', 'accept-language': 'fr' });
  assert.equal(chosen.body.error, 'Ya no queda espacio para más fotos. Por favor, avisa a los novios.');
});

test('a 404 in French and in the other Romance languages: an unknown photo id, code not_found', async () => {
  const sentences: Record<string, string> = {
    fr: 'Aucune photo ne porte cet identifiant.',
    es: 'No hay ninguna foto con este ID.',
    it: 'Nessuna foto con questo ID.',
    'pt-BR': 'Nenhuma foto tem este ID.',
    ro: 'Nu există nicio fotografie cu acest ID.',
  };
  for (const [lang, error] of Object.entries(sentences)) {
    const res = await fetch(`${s.url}/api/photos/no-such-photo/status`, { headers: { 'accept-language': lang } });
    assert.equal(res.status, 404, lang);
    assert.deepEqual(await res.json(), { success: false, error, code: 'not_found' }, lang);
  }
});

test('French sentences keep French typography: a narrow no-break space before the colon and inside « »', async () => {
  const admin = await adminClient(s.url);
  await admin.fetch('/live?lang=fr'); // the page's ?lang= sets the language cookie
  const r = await admin.put('/admin/api/settings', { colour: 'ivory' });
  assert.equal(r.status, 400);
  assert.equal(r.body.code, 'invalid_input');
  assert.equal(r.body.error, 'Paramètre inconnu\u202f: «\u202fcolour\u202f».');
  const login = await fetch(`${s.url}/admin/api/login`, {
    method: 'POST',
    headers: { 'accept-language': 'fr', 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'x'.repeat(500), password: 'y' }),
  });
  assert.equal(login.status, 400);
  assert.match(((await login.json()) as { error: string }).error, /^Le nom d’utilisateur et le mot de passe ne peuvent pas dépasser \d+ caractères\.$/);
});
