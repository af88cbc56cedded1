import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useSyncExternalStore, type CSSProperties } from 'react';
import { LiveEvents } from '../components/wall/live-events';
import { WallPlayer } from '../components/wall/player';
import { preloadImage } from '../components/wall/preload';
import { ShareCorner } from '../components/wall/ShareCorner';
import type { WallItem } from '../components/wall/types';
import { WallMedia } from '../components/wall/WallMedia';
import { loadVisible } from '../components/wall/wall-api';
import { keepScreenOn } from '../components/wall/wake-lock';
import { coupleNames, settings } from '../state/settings';

const MAX_ITEMS = 500;
/** The list is reloaded this often: it heals anything a dropped connection could have missed. */
const REFRESH_MS = 30 * 60 * 1000;

/** ?interval=<ms> speeds the show up (long-run tests); the default is 8 s a photo. */
function intervalFromQuery(): number {
  const v = Number(new URLSearchParams(window.location.search).get('interval'));
  return Number.isFinite(v) && v >= 20 ? Math.min(v, 600_000) : 8000;
}

/**
 * /wall: the reception screen. Visible photos one at a time with a crossfade; new ones arrive
 * over GET /api/events and are shown next; hidden ones leave at once.
 */
export default function WallPage() {
  useSignals();
  const player = useMemo(() => {
    const intervalMs = intervalFromQuery();
    return new WallPlayer({
      intervalMs,
      fadeMs: Math.min(1200, Math.round(intervalMs / 2)),
      videoMaxMs: 5 * 60 * 1000,
      preload: (item) => preloadImage(item.backblaze_url),
      max: MAX_ITEMS,
    });
  }, []);
  const state = useSyncExternalStore(player.subscribe, player.getState);

  useEffect(() => {
    let disposed = false;
    let loading: Promise<void> | null = null;
    // Events that arrive while the list loads are applied after it, so the list cannot undo them.
    let buffered: ({ add: WallItem } | { remove: string })[] | null = null;
    const apply = (e: { add: WallItem } | { remove: string }) => ('add' in e ? player.add(e.add) : player.remove(e.remove));

    const reload = () => {
      if (loading) return loading;
      buffered = [];
      loading = loadVisible(MAX_ITEMS)
        .then((items) => {
          if (!disposed) player.setItems(items);
        })
        .catch((err) => console.error('Could not load the photos for the wall', err))
        .finally(() => {
          const later = buffered ?? [];
          buffered = null;
          loading = null;
          if (!disposed) later.forEach(apply);
        });
      return loading;
    };
    const handle = (e: { add: WallItem } | { remove: string }) => (buffered ? buffered.push(e) : apply(e));

    let first = true;
    const live = new LiveEvents('/api/events', {
      visible: (item) => handle({ add: item }),
      hidden: (id) => handle({ remove: id }),
      // The first load waits until the stream listens, so nothing falls between the two.
      ready: ({ resync }) => {
        if (first || resync) void reload();
        first = false;
      },
    });
    live.start();
    // Should the stream be slow to open (a buffering proxy), show the photos anyway.
    const fallback = setTimeout(() => first && void reload(), 3000);
    const refresh = setInterval(() => {
      void reload();
      live.restart();
    }, REFRESH_MS);
    const releaseScreen = keepScreenOn();
    document.documentElement.classList.add('wall-mode');

    return () => {
      disposed = true;
      clearTimeout(fallback);
      clearInterval(refresh);
      live.stop();
      player.dispose();
      releaseScreen();
      document.documentElement.classList.remove('wall-mode');
    };
  }, [player]);

  const names = coupleNames(settings.value);
  const { current, previous, shown } = state;
  return (
    <main className="wall" data-shown={shown} style={{ '--wall-fade': `${player.fadeMs}ms` } as CSSProperties}>
      {previous && <WallMedia key={previous.key} slide={previous} leaving onEnded={player.ended} onFailed={player.failed} onDuration={player.videoDuration} />}
      {current && <WallMedia key={current.key} slide={current} leaving={false} onEnded={player.ended} onFailed={player.failed} onDuration={player.videoDuration} />}
      {!current && !previous && (
        <div className="wall-empty">
          {names && <h1>{names}</h1>}
          <p>Photos will appear here as guests share them.</p>
        </div>
      )}
      <ShareCorner />
    </main>
  );
}
