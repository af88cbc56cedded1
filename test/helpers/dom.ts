import { Window } from 'happy-dom';

/**
 * A happy-dom window as the global browser environment, like @happy-dom/global-registrator:
 * every window property Node lacks becomes a global, and the few Node has with other meanings
 * (navigator on Node 21+, Event and friends) are taken from the window so React and the
 * components see one consistent DOM. Node's fetch, timers, URL, FormData and File stay.
 */
const FORCED = ['window', 'document', 'navigator', 'location', 'history', 'Event', 'EventTarget', 'CustomEvent', 'self'];

export interface Dom {
  window: Window;
  close(): Promise<void>;
}

let current: Dom | undefined;

export function installDom(url = 'http://localhost:3000/'): Dom {
  if (current) return current;
  const window = new Window({ url, width: 1280, height: 900 });
  const g = globalThis as Record<string, unknown>;
  const added: string[] = [];
  const saved = new Map<string, PropertyDescriptor | undefined>();
  for (const key of Object.getOwnPropertyNames(window)) {
    if (key in g && !FORCED.includes(key)) continue;
    const value = key === 'window' || key === 'self' ? window : (window as unknown as Record<string, unknown>)[key];
    saved.set(key, Object.getOwnPropertyDescriptor(g, key));
    Object.defineProperty(g, key, { value, configurable: true, writable: true, enumerable: false });
    added.push(key);
  }
  for (const key of FORCED) {
    if (added.includes(key)) continue;
    saved.set(key, Object.getOwnPropertyDescriptor(g, key));
    const value = key === 'window' || key === 'self' ? window : (window as unknown as Record<string, unknown>)[key];
    Object.defineProperty(g, key, { value, configurable: true, writable: true, enumerable: false });
  }
  // Tells React that tests wrap updates in act().
  g.IS_REACT_ACT_ENVIRONMENT = true;
  current = {
    window,
    async close() {
      for (const [key, d] of saved) {
        if (d) Object.defineProperty(g, key, d);
        else delete g[key];
      }
      current = undefined;
      await window.happyDOM.close();
    },
  };
  return current;
}

// Installed on import: react-dom decides at load time whether a DOM exists, so test files
// import this module before anything that pulls in react-dom.
export const dom = installDom();

export interface Rendered {
  container: HTMLElement;
  unmount(): Promise<void>;
}

/** Renders into a fresh container inside act(), so effects and state updates have run. */
export async function render(element: unknown): Promise<Rendered> {
  const { createRoot } = await import('react-dom/client');
  const { act } = await import('react');
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  await act(async () => root.render(element as never));
  return {
    container,
    async unmount() {
      await act(async () => root.unmount());
      container.remove();
    },
  };
}

/** Runs `fn` inside act() and lets pending promises (fetch answers) settle. */
export async function actAsync(fn: () => unknown = () => {}): Promise<void> {
  const { act } = await import('react');
  await act(async () => {
    await fn();
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
  });
}

/** Text content with whitespace collapsed. */
export const text = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();

/**
 * Lets React work (as actAsync) until `condition` holds, for what arrives after an unknown number
 * of turns: a lazy component's module, which on a busy machine takes longer than actAsync's few.
 */
export async function until<T>(condition: () => T | null | undefined | false, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = condition();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await actAsync(() => new Promise((r) => setTimeout(r, 10)));
  }
}
