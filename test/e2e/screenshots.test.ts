import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { makeReadmeScreenshots } from '../../scripts/screenshots.js';
import { tempDir } from '../helpers/temp.js';

test('npm run screenshots makes the README pictures from the real site with sample data', async () => {
  const out = tempDir('readme-images-');
  const files = await makeReadmeScreenshots(out);
  assert.deepEqual(files.map((f) => path.basename(f)).sort(), [
    'dashboard.webp',
    'gallery.webp',
    'home-phone.webp',
    'remote-phone.webp',
    'upload-phone.webp',
    'wall-mosaic.webp',
    'wall.webp',
  ]);
  for (const f of files) {
    const meta = await sharp(f).metadata();
    assert.equal(meta.format, 'webp', f);
    // Phones 390 px wide, the desktop pages 1280, the wall's mosaic on a 1920 px TV.
    assert.equal(meta.width, f.includes('phone') ? 390 : f.includes('mosaic') ? 1920 : 1280, f);
    const size = fs.statSync(f).size;
    assert.ok(size > 5_000 && size < 600_000, `${path.basename(f)}: ${size} bytes`);
    // A real page, not a blank one: a plain page's picture has an entropy near 0, these 2.7 to 7.
    const { entropy } = await sharp(f).stats();
    assert.ok(entropy > 2, `${path.basename(f)} shows something (entropy ${entropy.toFixed(2)})`);
  }
});
