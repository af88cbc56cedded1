// The in-page camera's shutter: from the press to the preview painted on screen, at 360 px with
// Chromium's fake 4K camera, over --shots presses (retake between). Baseline, in the same page
// and run: a press that does nothing but ask for the next painted frame (what any answer to a
// tap costs here). Goal: the shutter under 300 ms.
// Run: npm run bench:camera -- [--shots=20]   (needs the built client: node scripts/build.mjs)
import os from 'node:os';
import { FAKE_MEDIA, launchBrowser, ServerProcess } from '../../test/helpers/browser.js';

const args = new Map(process.argv.slice(2).map((a) => [a.replace(/^--/, '').split('=')[0], a.split('=')[1] ?? 'true']));
const SHOTS = Number(args.get('shots') ?? 20);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (n ${xs.length})`;

const [browser, srv] = await Promise.all([launchBrowser(FAKE_MEDIA), new ServerProcess().start()]);
try {
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  await page.goto(srv.url + '/live');
  // Baseline: a press answered by nothing but the next painted frame.
  const baseline: number[] = await page.evaluate(async (n) => {
    const out: number[] = [];
    const button = document.createElement('button');
    document.body.append(button);
    for (let i = 0; i < n; i++) {
      await new Promise<void>((done) => {
        button.onclick = () => {
          const start = performance.now();
          requestAnimationFrame(() => {
            out.push(performance.now() - start);
            done();
          });
        };
        button.click();
      });
      await new Promise((r) => setTimeout(r, 50));
    }
    button.remove();
    return out;
  }, SHOTS);
  await page.getByTestId('camera-photo').click();
  await page.getByTestId('camera-sheet').waitFor();
  await page.waitForFunction(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid=camera-viewfinder]');
    const b = document.querySelector<HTMLButtonElement>('[data-testid=camera-shutter]');
    return !!v && v.videoWidth > 0 && v.readyState >= 2 && !!b && !b.disabled;
  });
  const size = await page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid=camera-viewfinder]')!;
    return `${v.videoWidth}x${v.videoHeight}`;
  });
  for (let i = 0; i < SHOTS; i++) {
    await page.getByTestId('camera-shutter').click();
    await page.getByTestId('camera-preview').waitFor();
    // Let the full-size photo finish before the next press, as a person looking at it would.
    await page.waitForTimeout(400);
    await page.getByTestId('camera-retake').click();
    await page.getByTestId('camera-shutter').waitFor();
  }
  const t = await page.evaluate(() => window.__cameraTimings!);
  const shutter = t.shutterToPreviewMs;
  console.log(`bench:camera: ${SHOTS} presses at 360 px, fake camera ${size}, 2 cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')}`);
  console.log(`  shutter -> preview painted: ${fmt(shutter)}`);
  console.log(`  baseline, a press -> the next frame: ${fmt(baseline)}`);
  console.log(`  ratio of medians: ${(median(shutter) / median(baseline)).toFixed(2)}; goal: under 300 ms: ${median(shutter) < 300 && Math.max(...shutter) < 300 ? 'met' : 'MISSED'}`);
  console.log(`  the preview painted before the full-size photo began: ${t.previewFirst.filter(Boolean).length} of ${t.previewFirst.length}`);
  await context.close();
} finally {
  await browser.close();
  await srv.stop();
}
process.exit(0);
