/** A held screen wake lock. */
export interface WakeLockHandle {
  release(): Promise<void>;
}

/** The parts of the browser the keep-alive uses; tests pass a fake. */
export interface KeepAliveEnv {
  /** navigator.wakeLock, where the browser has it. */
  wakeLock?: { request(type: 'screen'): Promise<WakeLockHandle> };
  visible(): boolean;
  online(): boolean;
  listen(target: 'window' | 'document', type: string, fn: (e: Event) => void): () => void;
}

/** What the keep-alive needs of the upload engine. */
export interface Keepable {
  readonly sending: boolean;
  subscribe(fn: () => void): () => void;
  wake(): void;
}

export function browserEnv(): KeepAliveEnv {
  const nav = navigator as Navigator & { wakeLock?: KeepAliveEnv['wakeLock'] };
  return {
    wakeLock: nav.wakeLock,
    visible: () => document.visibilityState === 'visible',
    online: () => nav.onLine !== false,
    listen: (target, type, fn) => {
      const t = target === 'window' ? window : document;
      t.addEventListener(type, fn);
      return () => t.removeEventListener(type, fn);
    },
  };
}

/**
 * While files are on their way: keeps the screen on (a phone that locks itself would suspend the
 * page), asks before the page is closed, and retries at once when the signal returns or the page
 * is shown again rather than waiting out the backoff. Returns a function that stops it all.
 */
export function keepUploadsAlive(engine: Keepable, env: KeepAliveEnv = browserEnv()): () => void {
  let lock: WakeLockHandle | null = null;
  let asking = false;
  let stopped = false;

  const sync = () => {
    const want = !stopped && engine.sending && env.visible();
    if (want && !lock && !asking && env.wakeLock) {
      asking = true;
      env.wakeLock.request('screen').then(
        (l) => {
          asking = false;
          lock = l;
          sync(); // the queue may have gone idle while the browser was deciding
        },
        () => {
          asking = false; // refused (battery saver, not visible): uploads go on without it
        },
      );
    } else if (!want && lock) {
      const l = lock;
      lock = null;
      void l.release().catch(() => undefined);
    }
  };

  const stops = [
    engine.subscribe(sync),
    env.listen('document', 'visibilitychange', () => {
      sync();
      if (env.visible() && env.online()) engine.wake();
    }),
    env.listen('window', 'online', () => engine.wake()),
    env.listen('window', 'beforeunload', (e) => {
      if (!engine.sending) return;
      e.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      (e as BeforeUnloadEvent).returnValue = '';
    }),
  ];
  sync();
  return () => {
    stopped = true;
    for (const stop of stops) stop();
    sync();
  };
}
