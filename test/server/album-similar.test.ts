import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp, { type Sharp } from 'sharp';
import { sample } from '../helpers/samples.js';
import { serverWithAdmin, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { uploadFile } from '../helpers/uploads.js';
import { addPhoto } from './photos-fixture.js';

let s: TestServer;
let admin: TestClient;
before(async () => ({ s, admin } = await serverWithAdmin()));
after(() => s.close());

/** A phone-like JPEG of a real scene, taken at `taken` (EXIF), changed by `edit`. */
async function shot(file: string, taken: string, edit: (img: Sharp, w: number, h: number) => Sharp = (i) => i, quality = 85): Promise<Buffer> {
  const src = await sharp(sample(file)).rotate().resize(1200, 1200, { fit: 'inside' }).toBuffer();
  const { width, height } = await sharp(src).metadata();
  return edit(sharp(src), width!, height!)
    .jpeg({ quality })
    .withExif({ IFD0: { Make: 'Test', Model: 'Phone' }, IFD2: { DateTimeOriginal: taken, OffsetTimeOriginal: '+00:00' } })
    .toBuffer();
}
const shifted = (pct: number) => (img: Sharp, w: number, h: number) => {
  const cw = Math.round(w * (1 - pct / 100));
  const ch = Math.round(h * (1 - pct / 100));
  return img.extract({ left: w - cw, top: h - ch, width: cw, height: ch }).resize(w, h);
};

async function upload(name: string, bytes: Buffer): Promise<string> {
  const r = await uploadFile(s.url, bytes, name);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.photo_id;
}

async function adminPhoto(id: string) {
  const r = await admin.get('/admin/api/photos?per_page=100');
  return r.body.photos.find((p: any) => p.id === id);
}

describe('similar shots and quality flags', () => {
  const ids: Record<string, string> = {};

  before(async () => {
    const scene = 'mobile_jolla.jpg';
    ids.burst1 = await upload('burst1.jpg', await shot(scene, '2026:06:20 17:00:00'));
    ids.burst2 = await upload('burst2.jpg', await shot(scene, '2026:06:20 17:00:40', shifted(2)));
    ids.burst3 = await upload('burst3.jpg', await shot(scene, '2026:06:20 17:01:30', (img) => img.linear(1.25, 0), 70));
    ids.other = await upload('other.jpg', await shot('hdr_iphone_hdr_YES.jpg', '2026:06:20 17:00:20'));
    ids.later = await upload('later.jpg', await shot(scene, '2026:06:20 20:00:00', shifted(1)));
    ids.blurry = await upload('blurry.jpg', await shot('gps_DSCN0010.jpg', '2026:06:20 12:00:00', (img, w) => img.blur(w * 0.01)));
    ids.dark = await upload('dark.jpg', await shot('gps_DSCN0010.jpg', '2026:06:20 13:00:00', (img) => img.linear(0.1, 0)));
    ids.bright = await upload('bright.jpg', await shot('gps_DSCN0010.jpg', '2026:06:20 14:00:00', (img) => img.linear(4, 0)));
    ids.clean = await upload('clean.jpg', await shot('gps_DSCN0010.jpg', '2026:06:20 15:00:00'));
    await s.services.processing.idle();
  });

  test('a burst taken within two minutes forms one group; another scene and the same scene hours later do not join', async () => {
    const burst = await Promise.all([ids.burst1, ids.burst2, ids.burst3].map(adminPhoto));
    const group = burst[0].similar_group;
    assert.ok(group, 'the burst has a group');
    for (const p of burst) {
      assert.equal(p.similar_group, group);
      assert.equal(p.similar_count, 3);
    }
    for (const id of [ids.other, ids.later, ids.clean]) {
      const p = await adminPhoto(id);
      assert.equal(p.similar_group, null, id);
      assert.equal(p.similar_count, 1);
    }
    const listed = await admin.get(`/admin/api/photos?similar_group=${encodeURIComponent(group)}`);
    assert.deepEqual(listed.body.photos.map((p: any) => p.id).sort(), [ids.burst1, ids.burst2, ids.burst3].sort());
    const sharpness = listed.body.photos.map((p: any) => p.sharpness);
    assert.deepEqual(sharpness, [...sharpness].sort((a, b) => b - a), 'best (sharpest, unflagged) first');
  });

  test('blurry, dark and overexposed photos carry their flag, a clean photo none; flagged=true lists only flagged ones', async () => {
    assert.ok((await adminPhoto(ids.blurry)).quality_flags.includes('blurry'));
    assert.ok((await adminPhoto(ids.dark)).quality_flags.includes('dark'));
    assert.ok((await adminPhoto(ids.bright)).quality_flags.includes('overexposed'));
    const clean = await adminPhoto(ids.clean);
    assert.deepEqual(clean.quality_flags, []);
    assert.ok(clean.sharpness > (await adminPhoto(ids.blurry)).sharpness);
    const flagged = (await admin.get('/admin/api/photos?flagged=true&per_page=100')).body.photos.map((p: any) => p.id);
    for (const id of [ids.blurry, ids.dark, ids.bright]) assert.ok(flagged.includes(id), id);
    for (const id of [ids.clean, ids.burst1, ids.other]) assert.ok(!flagged.includes(id), id);
  });

  test('keep-best approves the chosen photo and hides the rest of its group, out of the approval queue; family members get 403', async () => {
    for (const id of [ids.burst1, ids.burst3]) await admin.post(`/admin/api/photos/${id}/approve`);
    const family = await userClient(s.url, admin, 'family');
    const refused = await family.post(`/admin/api/photos/${ids.burst2}/keep-best`);
    assert.equal(refused.status, 403);
    assert.equal((await adminPhoto(ids.burst1)).is_visible, true, 'nothing changed');
    const groom = await userClient(s.url, admin, 'groom');
    const r = await groom.post(`/admin/api/photos/${ids.burst2}/keep-best`);
    assert.equal(r.status, 200);
    assert.equal(r.body.photo.id, ids.burst2);
    assert.equal(r.body.photo.is_visible, true);
    assert.deepEqual([...r.body.hidden_ids].sort(), [ids.burst1, ids.burst3].sort());
    assert.equal((await adminPhoto(ids.burst1)).is_visible, false);
    assert.equal((await adminPhoto(ids.burst3)).is_visible, false);
    const queue = async () => (await admin.get('/admin/api/photos?pending=true&per_page=100')).body.photos.map((p: any) => p.id);
    const waiting = await queue();
    for (const id of [ids.burst1, ids.burst2, ids.burst3]) assert.ok(!waiting.includes(id), `${id} dealt with, not waiting`);
    assert.ok(waiting.includes(ids.other), 'a photo of no group still waits');
    // Shown and hidden again by hand: an ordinary hidden photo, back in the queue.
    await admin.post(`/admin/api/photos/${ids.burst1}/approve`);
    await admin.post(`/admin/api/photos/${ids.burst1}/hide`);
    assert.ok((await queue()).includes(ids.burst1));
    assert.equal((await admin.post('/admin/api/photos/nope/keep-best')).status, 404);
    const alone = await admin.post(`/admin/api/photos/${ids.clean}/keep-best`);
    assert.deepEqual(alone.body.hidden_ids, []);
    assert.equal(alone.body.photo.is_visible, true);
  });

  test('photos stored before measuring existed are measured and grouped by the backfill', async () => {
    const a = await addPhoto(s, { file: sample('orientation_landscape_1.jpg') });
    const b = await addPhoto(s, { file: sample('orientation_landscape_1.jpg') });
    assert.equal((await adminPhoto(a)).sharpness, null);
    await s.services.processing.measureAll();
    await s.services.processing.idle();
    const [pa, pb] = [await adminPhoto(a), await adminPhoto(b)];
    assert.ok(pa.sharpness > 0);
    assert.equal(pa.similar_group !== null && pa.similar_group === pb.similar_group, true, 'the same picture, stored twice a moment apart');
  });
});
