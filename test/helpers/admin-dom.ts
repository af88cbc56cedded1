/**
 * A browser-like global scope for admin component tests: happy-dom's window, document,
 * navigator and DOM classes on globalThis, a scriptable fake fetch, and render helpers.
 * Import it before any client module (modules read window/location when they load).
 */
import { Window } from 'happy-dom';

const win = new Window({ url: 'http://localhost/admin/login', width: 1280, height: 900 });
const g = globalThis as Record<string, unknown>;
const define = (key: string, value: unknown) => Object.defineProperty(g, key, { value, configurable: true, writable: true });

define('window', win);
define('document', win.document);
// Node 21+ has its own navigator; Node 20 has none. Either way the page sees the window's.
define('navigator', win.navigator);
define('location', win.location);
define('history', win.history);
for (const k of ['addEventListener', 'removeEventListener', 'dispatchEvent', 'getComputedStyle', 'requestAnimationFrame', 'cancelAnimationFrame', 'matchMedia']) {
  define(k, (win as unknown as Record<string, (...a: unknown[]) => unknown>)[k].bind(win));
}
define('devicePixelRatio', 1);
define('innerWidth', 1280);
define('innerHeight', 900);

// DOM classes (HTMLElement, Node, MouseEvent...) that Node itself does not have.
for (let o: object | null = win; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
  for (const k of Object.getOwnPropertyNames(o)) {
    if (!/^[A-Z]/.test(k) || k in g) continue;
    const d = Object.getOwnPropertyDescriptor(o, k);
    if (d && 'value' in d && typeof d.value === 'function') define(k, d.value);
  }
}
// Events dispatched on happy-dom nodes must be happy-dom events.
for (const k of ['Event', 'CustomEvent', 'UIEvent', 'MouseEvent', 'KeyboardEvent', 'FocusEvent', 'InputEvent', 'PopStateEvent']) {
  define(k, (win as unknown as Record<string, unknown>)[k]);
}
g.IS_REACT_ACT_ENVIRONMENT = true;

/** window.confirm / window.alert record their texts; confirm answers `confirmAnswer`. */
export const dialogs = { confirms: [] as string[], alerts: [] as string[], confirmAnswer: true };
(win as unknown as { confirm: (m: string) => boolean }).confirm = (m: string) => {
  dialogs.confirms.push(m);
  return dialogs.confirmAnswer;
};
(win as unknown as { alert: (m: string) => void }).alert = (m: string) => {
  dialogs.alerts.push(m);
};

export interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}
type Answer = { status?: number; body?: unknown };
/** A function may answer later (a Promise), to play a slow server. */
type Reply = Answer | ((call: Call) => Answer | Promise<Answer>);

/** A fake server: routes are "METHOD /path" (query ignored); unknown routes answer 404 JSON. */
export class FakeApi {
  calls: Call[] = [];
  private routes = new Map<string, Reply>();

  on(route: string, reply: Reply): this {
    this.routes.set(route, reply);
    return this;
  }

  reset(): void {
    this.calls = [];
    this.routes.clear();
  }

  called(route: string): Call[] {
    const [method, path] = route.split(' ');
    return this.calls.filter((c) => c.method === method && c.path === path);
  }

  fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input instanceof Request ? input.url : input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { method, path: url.pathname, query: url.searchParams, body };
    this.calls.push(call);
    const reply = this.routes.get(`${method} ${url.pathname}`);
    if (!reply) return json(404, { success: false, error: 'Not found' });
    const r = typeof reply === 'function' ? await reply(call) : reply;
    return json(r.status ?? 200, r.body ?? { success: true });
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export const api = new FakeApi();
define('fetch', api.fetch);

export { win };
