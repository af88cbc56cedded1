import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { serverPort } from './ports.js';
import { ADMIN, tempDir } from './server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Chromium's own microphone and camera (a beep and a test pattern), granted without asking. */
export const FAKE_MEDIA = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

/** `extraArgs`: more Chromium switches, such as FAKE_MEDIA. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/** The built server (dist/server/main.js) as a child process, like `npm start` runs it. */
export class ServerProcess {
  child: ChildProcess | undefined;
  url = '';
  log = '';
  /** How long a start may take (a test whose server starts face workers beside other suites raises it). */
  startMs = 90_000;

  constructor(
    readonly dataDir = tempDir('wedding-e2e-'),
    readonly env: Record<string, string> = {},
    public port = 0,
    /** Another build of the server (test/helpers/i18n-build.ts); its CLIENT_DIR goes in `env`. */
    readonly entry = path.join(ROOT, 'dist/server/main.js'),
  ) {}

  /** Starts the server; on a port of its own choosing it tries others while one is taken. */
  async start(): Promise<this> {
    const choosing = !this.port;
    for (let attempt = 1; ; attempt++) {
      if (choosing) this.port = serverPort();
      try {
        return await this.launch();
      } catch (e) {
        if (!choosing || attempt === 5 || !this.log.includes('EADDRINUSE')) throw e;
        this.log = '';
      }
    }
  }

  private async launch(): Promise<this> {
    this.child = spawn(process.execPath, [this.entry], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d) => (this.log += d));
    this.child.stderr!.on('data', (d) => (this.log += d));
    this.url = `http://127.0.0.1:${this.port}`;
    // Generous: with several browser files in parallel on two cores, a start can take 15 s.
    const deadline = Date.now() + this.startMs;
    while (Date.now() < deadline) {
      if (this.child.exitCode !== null) throw new Error(`server exited: ${this.log}`);
      try {
        const r = await fetch(this.url + '/api/health');
        if (r.ok) return this;
      } catch {
        /* not up yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    this.child.kill('SIGKILL'); // never leave a late server behind
    throw new Error(`server did not start: ${this.log}`);
  }

  /** SIGTERM (clean) or SIGKILL (crash); resolves when the process is gone. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill(signal);
    });
  }
}

/** Chromium and the built server, started side by side for one test file. */
export function startBrowserAndServer(): Promise<[Browser, ServerProcess]> {
  return Promise.all([launchBrowser(), new ServerProcess().start()]);
}

/** Closes what startBrowserAndServer opened; either is missing when starting it failed. */
export async function stopBrowserAndServer(browser: Browser | undefined, srv: ServerProcess | undefined): Promise<void> {
  await browser?.close();
  await srv?.stop();
}

/** A page with a phone or desktop viewport; console errors are collected. */
export async function newPage(browser: Browser, viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { context, page, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Signs in through the real login form. */
export async function uiLogin(page: Page, base: string, username = ADMIN.username, password = ADMIN.password): Promise<void> {
  await page.goto(base + '/admin/login');
  await page.getByPlaceholder('Enter your username').fill(username);
  await page.getByPlaceholder('Enter your password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL('**/admin/dashboard');
}
