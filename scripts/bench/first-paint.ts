// A guest's first look at the gallery, the home page and the upload page in Chromium, cold (a new
// browser context, nothing cached): the time from navigation to the first gallery thumbnail
// painted and to the app's first render of the gallery (its footer), and the largest contentful
// paint of / and /live, on loopback and on a phone's terms (CPU 4x slower, 1.6 Mbit/s down,
// 150 ms round trips). The baseline in the same run: a bare page of the same server that the same
// thumbnail opened on its own (one request: the network's floor).
// Needs the built server: node scripts/build.mjs && npm run bench:first-paint -- [--runs=7]
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { BenchServer } from './bench-server.js';
import { approveAll, guest, type Run } from './rush-clients.js';
import { Recorder } from './rush-http.js';
import { generateMedia } from './rush-media.js';

const args = new Map(process.argv.slice(2).map((a) => [a.replace(/^--/, '').split('=')[0], a.split('=')[1] ?? 'true']));
const RUNS = Number(args.get('runs') ?? 7);
const PASSWORD = 'bench-password-123';

// In the page: the first thumbnail painted (its image loaded, then two frames; the server draws
// the first tiles into the HTML, so this may come before any script has run), the app's first
// render (its footer) and the largest contentful paint. A string, not a function: tsx would put
// its own helpers into a function's text.
const WATCH = `
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  const seen = new WeakSet();
  const watch = () => {
    if (document.querySelector('.site-footer')) window.appAt ??= performance.now();
    for (const img of document.querySelectorAll('.gallery-grid li img')) {
      if (seen.has(img)) continue;
      seen.add(img);
      const done = () => requestAnimationFrame(() => requestAnimationFrame(() => { window.firstThumb ??= performance.now(); }));
      if (img.complete && img.naturalWidth) done();
      else img.addEventListener('load', done, { once: true });
    }
  };
  new MutationObserver(watch).observe(document, { subtree: true, childList: true });
`;

const PHONE = { cpu: 4, downKbps: 1600, upKbps: 750, rttMs: 150 };

async function cold<T>(browser: Browser, url: string, phone: boolean, what: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  if (phone) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE.cpu });
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: PHONE.rttMs,
      downloadThroughput: (PHONE.downKbps * 1000) / 8,
      uploadThroughput: (PHONE.upKbps * 1000) / 8,
    });
  }
  await page.addInitScript(WATCH);
  await page.goto(url, { waitUntil: 'commit' });
  const ms = await what(page).catch(async (e) => {
    const seen = await page.evaluate(`[document.querySelectorAll('.gallery-grid li img').length, [...document.querySelectorAll('.gallery-grid li img')].map((i) => i.complete + ':' + i.naturalWidth + ':' + i.loading).join(' '), performance.getEntriesByType('resource').map((r) => r.name.split('/').pop() + '@' + Math.round(r.responseEnd)).join(' ')]`);
    throw new Error(`${url}: ${(e as Error).message}; the page had ${JSON.stringify(seen)}`);
  });
  await context.close();
  return ms;
}

const firstThumb = (page: Page) => page.waitForFunction('window.firstThumb', undefined, { timeout: 60_000, polling: 20 }).then((h) => h.jsonValue() as Promise<number>);
const appRendered = (page: Page) => page.waitForFunction('window.appAt', undefined, { timeout: 60_000, polling: 20 }).then((h) => h.jsonValue() as Promise<number>);
/** The largest contentful paint once it has stayed the same for a second (at most 30 s). */
async function lcp(page: Page): Promise<number> {
  let last = NaN;
  let since = Date.now();
  for (const end = Date.now() + 30_000; Date.now() < end; await page.waitForTimeout(100)) {
    const now = (await page.evaluate('window.lcp ?? null')) as number | null;
    if (now === null) continue;
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since >= 1000) break;
  }
  return last;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (runs: ${xs.map((x) => x.toFixed(0)).join(', ')})`;

async function main(): Promise<void> {
  const server = await new BenchServer({ ADMIN_PASSWORD: PASSWORD }).start();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
  const work = fs.mkdtempSync('/dev/shm/wedding-first-paint-');
  try {
    // A gallery with 30 approved phone-sized photos.
    const media = await generateMedia({ dir: work, prefix: 'fp-', guests: 1, photosPerGuest: 30, videosPerGuest: 0, photoMb: [2, 4], videoMb: [1, 1], distinct: 6 });
    const run: Run = { rec: new Recorder(), stopped: () => false };
    const out = await guest(run, server.url, media[0], 'first-paint');
    for (const o of out) {
      for (let i = 0; i < 600 && o.photoId; i++) {
        const r = (await (await fetch(`${server.url}/api/photos/${o.photoId}/status`)).json()) as { status: string };
        if (r.status !== 'processing') break;
        await new Promise((res) => setTimeout(res, 200));
      }
    }
    await approveAll(server.url, PASSWORD);
    const first = ((await (await fetch(`${server.url}/api/photos?limit=1&offset=0`)).json()) as { photos: { thumbnail_url: string }[] }).photos[0];
    // The floor: the same thumbnail opened on its own (one request, the image shown as the page).
    const floorLoad = async (page: Page) => {
      await page.waitForLoadState('load');
      return page.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd") as Promise<number>;
    };
    if (args.has('timeline')) {
      // Where a cold loopback load's time goes: the page's own timings and each request's.
      for (let i = 0; i < 3; i++) {
        const lines = await cold(browser, `${server.url}/gallery`, false, async (p) => {
          const thumb = await firstThumb(p);
          const nav = (await p.evaluate("JSON.stringify(performance.getEntriesByType('navigation')[0])")) as string;
          const res = (await p.evaluate(
            "performance.getEntriesByType('resource').map((r) => [r.name.split('/').slice(-1)[0].slice(0, 40), Math.round(r.startTime), Math.round(r.responseStart), Math.round(r.responseEnd), r.renderBlockingStatus].join(' '))",
          )) as string[];
          const paints = (await p.evaluate("performance.getEntriesByType('paint').map((e) => e.name + ' ' + Math.round(e.startTime))")) as string[];
          const n = JSON.parse(nav);
          return [`first thumbnail ${Math.round(thumb)} ms; html ${Math.round(n.requestStart)}-${Math.round(n.responseStart)}-${Math.round(n.responseEnd)}, dcl ${Math.round(n.domContentLoadedEventEnd)}`, ...paints, ...res];
        });
        console.log(lines.join('\n') + '\n');
      }
      return;
    }
    console.log(`first paint: ${RUNS} cold loads each, Chromium ${browser.version()}, 390x844 @2x`);
    for (const phone of [false, true]) {
      const label = phone ? `phone terms (CPU /${PHONE.cpu}, ${PHONE.downKbps / 1000} Mbit/s, ${PHONE.rttMs} ms RTT)` : 'loopback';
      const gallery: number[] = [];
      const floor: number[] = [];
      const app: number[] = [];
      const home: number[] = [];
      const live: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const [thumb, rendered] = await cold(browser, `${server.url}/gallery`, phone, (p) => firstThumb(p).then(async (t) => [t, await appRendered(p)]));
        gallery.push(thumb);
        app.push(rendered);
        floor.push(await cold(browser, server.url + first.thumbnail_url, phone, floorLoad));
        home.push(await cold(browser, `${server.url}/`, phone, lcp));
        live.push(await cold(browser, `${server.url}/live`, phone, lcp));
      }
      console.log(`\n${label}`);
      console.log(`  /gallery, first thumbnail painted: ${fmt(gallery)}`);
      console.log(`  baseline (the same thumbnail opened on its own): ${fmt(floor)}`);
      console.log(`  ratio gallery / baseline: x${(median(gallery) / median(floor)).toFixed(2)}`);
      console.log(`  /gallery, the app's first render: ${fmt(app)}`);
      console.log(`  / largest contentful paint: ${fmt(home)}`);
      console.log(`  /live largest contentful paint: ${fmt(live)}`);
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
