/** Keeps the screen on while the wall is open (where the browser allows it); returns a release function. */
export function keepScreenOn(): () => void {
  type Lock = { release(): Promise<void> };
  const wl = (navigator as Navigator & { wakeLock?: { request(type: 'screen'): Promise<Lock> } }).wakeLock;
  if (!wl) return () => undefined;
  let lock: Lock | null = null;
  let done = false;
  const request = () => {
    if (done || document.visibilityState !== 'visible') return;
    wl.request('screen').then(
      (l) => (done ? void l.release() : (lock = l)),
      () => undefined,
    );
  };
  // The lock is dropped whenever the tab is hidden; take it again on return.
  document.addEventListener('visibilitychange', request);
  request();
  return () => {
    done = true;
    document.removeEventListener('visibilitychange', request);
    void lock?.release().catch(() => undefined);
  };
}
