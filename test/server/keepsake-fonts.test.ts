import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import sharp from 'sharp';
import { keepsakeWeights, THEMES } from '../../common/themes.js';
import { makeBook } from '../../server/keepsakes/book.js';
import { bestFile, builtFontsDir, keepsakeFonts } from '../../server/keepsakes/fonts.js';
import type { BookPlan } from '../../server/processing/keepsake-plan.js';
import { tempDir } from '../helpers/temp.js';

// The Docker image has no node_modules/@fontsource: the film and the book must find every
// theme's fonts in what the build writes (dist/keepsake-fonts) alone.
const built = path.resolve('dist/keepsake-fonts');
const dir = tempDir('wedding-keepsake-fonts-');

describe('keepsake fonts from the build', () => {
  test('dist/keepsake-fonts holds each theme\'s serif and sans as WOFF, Latin first, and the server looks there first', () => {
    assert.ok(fs.existsSync(built), 'run `node scripts/build.mjs` first');
    assert.equal(builtFontsDir(), built);
    for (const theme of THEMES) {
      const fonts = keepsakeFonts(theme.id, [built]);
      const weights = keepsakeWeights(theme);
      for (const [face, pkg, weight] of [[fonts.serif, theme.serif.pkg, weights.serif], [fonts.sans, theme.sans.pkg, weights.sans]] as const) {
        assert.ok(face.files.length >= 1, `${theme.id}: ${pkg}/${weight}`);
        assert.match(path.basename(face.files[0].file), new RegExp(`^${pkg}-latin-${weight.replace('-italic', '')}-`), `${theme.id}: Latin first`);
        for (const f of face.files) {
          assert.ok(f.file.startsWith(built + path.sep), f.file);
          assert.ok(f.file.endsWith('.woff') && fs.statSync(f.file).size > 1000, f.file);
          assert.equal(fs.readFileSync(f.file).subarray(0, 4).toString('latin1'), 'wOFF', f.file);
        }
      }
      // Cyrillic and Greek names are drawn in the theme's face where the font has them.
      const all = [...fonts.serif.files, ...fonts.sans.files].map((f) => path.basename(f.file));
      if (theme.sans.pkg === 'inter') assert.ok(all.some((f) => f.includes('-cyrillic-')) && all.some((f) => f.includes('-greek-')), theme.id);
      // Without arguments the server takes the build's copy.
      for (const f of [...keepsakeFonts(theme.id).serif.files, ...keepsakeFonts(theme.id).sans.files]) assert.ok(f.file.startsWith(built + path.sep), f.file);
    }
  });

  test('a font missing everywhere is an error that says where it looked, not a book without text', () => {
    assert.throws(() => keepsakeFonts('sage', [path.join(dir, 'nowhere')]), /Cormorant Garamond.*nowhere/);
  });

  test('a book made with only the built fonts embeds them; drawtext draws with them', async () => {
    const fonts = keepsakeFonts('classic', [built]);
    const photo = path.join(dir, 'photo.jpg');
    await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 120, g: 80, b: 60 } } }).jpeg().toFile(photo);
    const output = path.join(dir, 'book.pdf');
    const plan: BookPlan = {
      kind: 'book',
      output,
      work: path.join(dir, 'work'),
      title: 'Анна & Ben',
      names: 'Анна & Ben',
      date: '12 June 2027',
      fonts,
      colours: { bg: '#ffffff', text: '#222222', accent: '#555555' },
      cover: photo,
      moments: ['Ceremony'],
      items: [{ id: 'p1', video: false, file: photo, fallback: null, width: 1200, height: 800, duration: null, byline: 'by Zoë', moment: 0, at: 0 }],
      paper: 'letter',
      texts: { guestbook: 'Guestbook', scanToListen: 'Scan to listen', photos: 'More' },
      messages: [{ name: 'Γιώργος', text: 'Congratulations!', when: '12 June 2027', voiceUrl: null }],
    };
    const out = await makeBook(plan, { progress: () => undefined, turn: async () => undefined });
    assert.ok(out.bytes > 0 && (out.pages ?? 0) >= 3);
    const pdf = fs.readFileSync(output).toString('latin1');
    const descriptors = [...pdf.matchAll(/<<[^]*?\/Type \/FontDescriptor[^]*?>>/g)].map((m) => m[0]);
    for (const d of descriptors) assert.match(d, /\/FontFile2? \d+ 0 R/, 'embedded');
    const names = descriptors.map((d) => /\/FontName \/(\S+)/.exec(d)?.[1] ?? '');
    assert.ok(names.some((n) => /PlayfairDisplay/.test(n)), names.join(' '));
    assert.ok(names.some((n) => /SourceSans3/.test(n)), names.join(' '));
    assert.ok(!/\/BaseFont \/Helvetica/.test(pdf), 'no standard font stands in');
    // The film's title card: ffmpeg's drawtext reads the same WOFF file.
    const font = bestFile(fonts.serif, 'Anna & Ben')!;
    assert.ok(font.startsWith(built + path.sep));
    const frame = execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=white:s=320x80', '-vf', `drawtext=fontfile=${font}:text=Anna Ben:fontsize=40:x=10:y=20`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'gray', '-']);
    assert.ok(frame.some((v) => v < 100), 'the title drawn in dark ink on white');
  });
});
