import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { archiveFileName, cameraLabel, entryName, parseClockTime, sanitizeSegment, UniqueNames } from '../../server/export/export.names.js';
import { contentDisposition } from '../../server/export/export.routes.js';

const photo = (over: Partial<Parameters<typeof entryName>[0]> = {}) => ({
  original_filename: 'IMG_0042.jpg',
  content_type: 'image/jpeg',
  date_taken: '2025-06-07T16:42:10',
  upload_timestamp: '2025-06-08T09:00:00.000Z',
  camera_make: 'Canon',
  camera_model: 'Canon EOS 40D',
  ...over,
});

describe('entry names', () => {
  test('date taken, camera and original name', () => {
    assert.equal(entryName(photo()), '2025-06-07 16-42-10 Canon EOS 40D - IMG_0042.jpg');
    assert.equal(entryName(photo({ camera_make: 'Apple', camera_model: 'iPhone 15 Pro' })), '2025-06-07 16-42-10 Apple iPhone 15 Pro - IMG_0042.jpg');
    assert.equal(entryName(photo({ date_taken: '2025:06:07 16:42:10' })), '2025-06-07 16-42-10 Canon EOS 40D - IMG_0042.jpg', 'EXIF style dates');
  });

  test('no date taken: the upload time; no camera: left out', () => {
    assert.equal(entryName(photo({ date_taken: null, camera_make: null, camera_model: null })), '2025-06-08 09-00-00 - IMG_0042.jpg');
    assert.equal(entryName(photo({ date_taken: 'garbage' })), '2025-06-08 09-00-00 Canon EOS 40D - IMG_0042.jpg');
  });

  test('a name without extension gets one from its type', () => {
    assert.equal(entryName(photo({ original_filename: 'clip', content_type: 'video/quicktime', camera_make: null, camera_model: null })), '2025-06-07 16-42-10 - clip.mov');
  });

  test('slashes, control characters, leading dots and reserved characters are removed', () => {
    assert.equal(sanitizeSegment('../../etc/passwd'), '_.._etc_passwd');
    assert.equal(sanitizeSegment('.hidden'), 'hidden');
    assert.equal(sanitizeSegment('a\u0000b\nc\u202ed.jpg'), 'abcd.jpg');
    assert.equal(sanitizeSegment('what?<>:"|*.jpg'), 'what_______.jpg');
    assert.equal(sanitizeSegment('trailing. . '), 'trailing');
    assert.equal(sanitizeSegment('...'), 'photo');
    const n = entryName(photo({ original_filename: '..\\..\\win.jpg', camera_model: 'EOS/R5' }));
    assert.doesNotMatch(n, /[/\\]/);
  });

  test('very long names are cut to fit filesystems, keeping the extension and whole characters', () => {
    const long = entryName(photo({ original_filename: '💍'.repeat(200) + '.jpeg' }));
    assert.ok(Buffer.byteLength(long) <= 200, String(Buffer.byteLength(long)));
    assert.ok(long.endsWith('💍.jpeg'));
  });

  test('camera labels do not repeat the maker', () => {
    assert.equal(cameraLabel('NIKON CORPORATION', 'NIKON D70'), 'NIKON D70');
    assert.equal(cameraLabel('samsung', 'SM-G991B'), 'samsung SM-G991B');
    assert.equal(cameraLabel(null, 'Pixel 8'), 'Pixel 8');
    assert.equal(cameraLabel('  ', null), '');
  });

  test('clock times are read from the digits, never shifted by a time zone', () => {
    assert.deepEqual(parseClockTime('2025-06-07T23:59:59+09:00'), { year: 2025, month: 6, day: 7, hour: 23, minute: 59, second: 59 });
    assert.equal(parseClockTime('2025-13-01'), null);
    assert.equal(parseClockTime(null), null);
  });
});

describe('de-duplication', () => {
  test('the same name again gets (2), (3); case does not matter; existing "(2)" names are respected', () => {
    const u = new UniqueNames();
    u.reserve('manifest.json');
    assert.equal(u.claim('image.jpg'), 'image.jpg');
    assert.equal(u.claim('image (2).jpg'), 'image (2).jpg');
    assert.equal(u.claim('IMAGE.jpg'), 'IMAGE (3).jpg');
    assert.equal(u.claim('image.jpg'), 'image (4).jpg');
    assert.equal(u.claim('Manifest.JSON'), 'Manifest (2).JSON');
  });

  test('tens of thousands of identical names stay fast (linear)', () => {
    const u = new UniqueNames();
    const names = new Set<string>();
    for (let i = 0; i < 50_000; i++) names.add(u.claim('image.jpg').toLowerCase());
    assert.equal(names.size, 50_000);
  });
});

describe('archive file name', () => {
  test('couple names, accents kept in filename*, plain ASCII in filename', () => {
    const f = archiveFileName(['Zoë', 'Luc'], 'all', new Date(2026, 5, 7));
    assert.deepEqual(f, { ascii: 'Zoe-and-Luc-wedding-photos-2026-06-07.zip', unicode: 'Zoë-and-Luc-wedding-photos-2026-06-07.zip' });
    assert.equal(contentDisposition(f), `attachment; filename="Zoe-and-Luc-wedding-photos-2026-06-07.zip"; filename*=UTF-8''Zo%C3%AB-and-Luc-wedding-photos-2026-06-07.zip`);
    assert.equal(archiveFileName(['Anna', 'Ben'], 'visible', new Date(2026, 5, 7)).ascii, 'Anna-and-Ben-wedding-photos-visible-2026-06-07.zip');
    assert.equal(archiveFileName(['小明', '"/x'], 'selected', new Date(2026, 5, 7)).ascii, 'and-x-wedding-photos-selected-2026-06-07.zip');
    assert.equal(archiveFileName([], 'all', new Date(2026, 5, 7)).ascii, 'wedding-photos-2026-06-07.zip');
  });
});
