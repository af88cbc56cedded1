import { loadConfig } from '../../server/config.js';
import { openSqlite, type Sqlite } from '../../server/db/open.js';
import { setLogLevel } from '../../server/log.js';
import { startServer, type RunningServer, type ServerOverrides } from '../../server/server.js';
import { tempDir } from './temp.js';

export const ADMIN = { username: 'admin', password: 'correct-horse-battery' };

export { tempDir };

/** A real server on port 0 with a real migrated SQLite file in a temp DATA_DIR. */
export async function startTestServer(
  env: Record<string, string> = {},
  dataDir = tempDir(),
  overrides: ServerOverrides = {},
): Promise<RunningServer & { dataDir: string; writable: () => Sqlite }> {
  setLogLevel((process.env.TEST_LOG_LEVEL as 'silent') ?? 'silent');
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    PROCESSING_CONCURRENCY: '2',
    ...env,
  });
  const s = await startServer(config, overrides);
  // The server's own connection (ctx.sqlite) only reads; a test that sets up rows writes
  // through a connection of its own, as another program on the same file would.
  let own: Sqlite | undefined;
  const writable = () => (own ??= openSqlite(s.ctx.paths.database));
  const close = s.close;
  s.close = async (graceMs?: number) => {
    await close(graceMs);
    own?.close();
    own = undefined;
  };
  return Object.assign(s, { dataDir, writable });
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** A test server and a fresh (signed-out) client on it; the test file closes it with `s.close()`. */
export async function serverWithClient(env: Record<string, string> = {}): Promise<{ s: TestServer; client: TestClient }> {
  const s = await startTestServer(env);
  return { s, client: new TestClient(s.url) };
}

/** serverWithClient plus a client signed in as the admin. */
export async function serverWithAdmin(env: Record<string, string> = {}): Promise<{ s: TestServer; admin: TestClient; client: TestClient }> {
  const { s, client } = await serverWithClient(env);
  return { s, client, admin: await adminClient(s.url) };
}

/** A client signed in as the configured admin. */
export async function adminClient(base: string): Promise<TestClient> {
  const c = new TestClient(base);
  await c.login();
  return c;
}

/** fetch with a cookie jar, like a browser tab. */
export class TestClient {
  private cookies = new Map<string, string>();
  lastSetCookie: string[] = [];

  constructor(readonly base: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async fetch(p: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set('cookie', this.cookieHeader());
    const send = () => fetch(this.base + p, { ...init, headers, redirect: 'manual' });
    // A kept-alive connection the server closed just as this request went out (after a long quiet
    // spell, on a loaded machine) is tried once more on a new one, as browsers do; a server that is
    // gone still fails (the new connection is refused).
    const streamed = init.body instanceof ReadableStream;
    const res = await send().catch((e: { cause?: { code?: string } }) => {
      if (streamed || e?.cause?.code !== 'ECONNRESET') throw e;
      return send();
    });
    this.lastSetCookie = res.headers.getSetCookie();
    for (const c of this.lastSetCookie) {
      const [pair, ...attrs] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async json(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; res: Response }> {
    const res = await this.fetch(p, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, res };
  }

  get = (p: string) => this.json('GET', p);
  post = (p: string, body?: unknown) => this.json('POST', p, body);
  put = (p: string, body?: unknown) => this.json('PUT', p, body);
  del = (p: string, body?: unknown) => this.json('DELETE', p, body);

  async login(username = ADMIN.username, password = ADMIN.password): Promise<void> {
    const r = await this.post('/admin/api/login', { username, password });
    if (r.status !== 200) throw new Error(`login ${username} failed: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** Creates a user of the role through the API (as admin) and returns a signed-in client for it. */
export async function userClient(base: string, admin: TestClient, role: 'family' | 'bride' | 'groom' | 'admin', username = `${role}${Math.floor(Math.random() * 1e6)}`): Promise<TestClient> {
  const password = 'password-' + role;
  const r = await admin.post('/admin/api/users', { username, email: `${username}@example.com`, full_name: `${role} person`, role, password });
  if (r.status !== 201) throw new Error(`create ${role}: ${r.status} ${JSON.stringify(r.body)}`);
  const c = new TestClient(base);
  await c.login(username, password);
  return c;
}
