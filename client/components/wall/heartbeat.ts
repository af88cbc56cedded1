import type { WallControls } from '../../../common/api-types';

/** This wall's id for the heartbeat: one per browser tab, kept over reloads. */
export function wallId(): string {
  const key = 'wall-id';
  try {
    const kept = sessionStorage.getItem(key);
    if (kept) return kept;
    const id = `wall-${crypto.getRandomValues(new Uint32Array(2)).join('')}`.slice(0, 40);
    sessionStorage.setItem(key, id);
    return id;
  } catch {
    return `wall-${Math.random().toString(36).slice(2, 14)}`;
  }
}

/**
 * Tells the server what this wall shows (POST /api/wall/heartbeat) every `everyMs` and whenever
 * `beat()` is called; a failed report waits for the next one.
 */
export function startHeartbeat(read: () => WallControls & { showing: string | null }, everyMs = 15_000): { beat(): void; stop(): void } {
  const id = wallId();
  let last = 0;
  const send = () => {
    last = Date.now();
    void fetch('/api/wall/heartbeat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id, ...read() }),
      keepalive: true,
    }).catch(() => undefined);
  };
  send();
  const timer = setInterval(send, everyMs);
  let soon: ReturnType<typeof setTimeout> | undefined;
  return {
    // A change is reported at once, at most one report a second.
    beat: () => {
      clearTimeout(soon);
      soon = setTimeout(send, Math.max(0, last + 1000 - Date.now()));
    },
    stop: () => {
      clearInterval(timer);
      clearTimeout(soon);
    },
  };
}
