// The couple's remote against several open walls: how long from a command's POST until each wall
// shows it (an announcement's text in the page), over many commands.
// Run: npx tsx scripts/bench/wall-commands.ts [walls=5] [commands=60]
// (needs the built client: node scripts/build.mjs)
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../../test/helpers/browser.js';
import { sample } from '../../test/helpers/samples.js';
import { startTestServer, TestClient } from '../../test/helpers/server.js';
import { addPhoto } from '../../test/server/photos-fixture.js';

export interface CommandsResult {
  walls: number;
  commands: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  missed: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

export async function runWallCommands(opts: { walls: number; commands: number; log?: (m: string) => void }): Promise<CommandsResult> {
  const log = opts.log ?? (() => undefined);
  const s = await startTestServer();
  const browser = await launchBrowser();
  try {
    for (let i = 0; i < 6; i++) await addPhoto(s, { file: sample(['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg'][i % 3]), visible: true });
    const admin = new TestClient(s.url);
    await admin.login();
    const pages = [];
    for (let i = 0; i < opts.walls; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
      const page = await context.newPage();
      // Each wall notes when an announcement's text first appears (the same machine's clock as this process).
      await page.addInitScript(() => {
        const seen: Record<string, number> = {};
        (window as unknown as { __seen: Record<string, number> }).__seen = seen;
        new MutationObserver(() => {
          const text = document.querySelector('[data-testid="wall-announcement"]')?.textContent;
          if (text && !(text in seen)) seen[text] = Date.now();
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await page.goto(`${s.url}/wall`);
      await page.locator('.wall-slide img').first().waitFor({ timeout: 30_000 });
      pages.push(page);
    }
    const sent: Record<string, number> = {};
    for (let i = 0; i < opts.commands; i++) {
      const text = `Bench ${i}`;
      sent[text] = Date.now();
      const r = await admin.post('/admin/api/wall/announce', { text, seconds: 5 });
      if (r.status !== 200) throw new Error(`announce: ${r.status}`);
      // Now and then a step too, as a couple would press next between announcements.
      if (i % 3 === 0) await admin.post('/admin/api/wall/command', { command: 'next' });
      await new Promise((r) => setTimeout(r, 150));
    }
    await new Promise((r) => setTimeout(r, 1500));
    const latencies: number[] = [];
    let missed = 0;
    for (const page of pages) {
      const seen = await page.evaluate(() => (window as unknown as { __seen: Record<string, number> }).__seen);
      for (const [text, at] of Object.entries(sent)) {
        if (seen[text] === undefined) missed++;
        else latencies.push(seen[text] - at);
      }
    }
    latencies.sort((a, b) => a - b);
    log(`${latencies.length} arrivals, ${missed} missed`);
    return { walls: opts.walls, commands: opts.commands, p50Ms: quantile(latencies, 0.5), p99Ms: quantile(latencies, 0.99), maxMs: latencies[latencies.length - 1], missed };
  } finally {
    await browser.close();
    await s.close(1000);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const walls = Number(process.argv[2] ?? 5);
  const commands = Number(process.argv[3] ?? 60);
  const r = await runWallCommands({ walls, commands, log: (m) => console.log(m) });
  console.log(JSON.stringify(r, null, 2));
  console.log(`\nwall-commands: ${r.commands} announcements to ${r.walls} open walls: p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms, ${r.missed} missed`);
  process.exit(0);
}
