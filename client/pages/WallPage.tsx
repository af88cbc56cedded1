import '../shared-chunk';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useState, useSyncExternalStore, type CSSProperties } from 'react';
import { WallPlayer } from '../components/wall/player';
import { preloadImage } from '../components/wall/preload';
import { ShareCorner } from '../components/wall/ShareCorner';
import { isMessage } from '../components/wall/types';
import { WallFeed } from '../components/wall/wall-feed';
import { WallMedia } from '../components/wall/WallMedia';
import { keepScreenOn } from '../components/wall/wake-lock';
import { isShipped, showLanguage, t } from '../i18n';
import { coupleNames, coverUrl, loadSettings, settings } from '../state/settings';

const MAX_ITEMS = 500;

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
      // A message is text: nothing to fetch before it shows.
      preload: (item) => (isMessage(item) ? Promise.resolve() : item.backblaze_url ? preloadImage(item.backblaze_url) : Promise.reject(new Error('no display image'))),
      max: MAX_ITEMS,
    });
  }, []);
  const { current, previous, shown, empty } = useSyncExternalStore(player.subscribe, player.getState);
  // The couple's pause: from the settings when the wall opens (or reconnects), then from wall-state events.
  const [pausedLive, setPausedLive] = useState<boolean | null>(null);
  // Until the first look-up answers, nothing shows: a wall opened while paused never flashes a photo.
  const [checked, setChecked] = useState(false);
  const paused = pausedLive ?? settings.value?.wall_paused ?? false;

  useEffect(() => {
    const lookUp = () => {
      setPausedLive(null);
      return loadSettings(true);
    };
    void lookUp().finally(() => setChecked(true));
    const feed = new WallFeed(player, {
      max: MAX_ITEMS,
      refreshMs: 30 * 60_000,
      mediaRetryMs: 10_000,
      mediaRetries: 30,
      onWallState: setPausedLive,
      onResync: lookUp,
    });
    feed.start();
    const releaseScreen = keepScreenOn();
    document.documentElement.classList.add('wall-mode');
    return () => {
      feed.stop();
      player.dispose();
      releaseScreen();
      document.documentElement.classList.remove('wall-mode');
    };
  }, [player]);

  // The wall speaks ?lang= or the wedding's default language, whatever this browser chose.
  const asked = new URLSearchParams(window.location.search).get('lang');
  const wallLanguage = isShipped(asked) ? asked : settings.value?.default_language;
  useEffect(() => {
    if (!wallLanguage) return;
    let live = true;
    let undo: (() => void) | undefined;
    void showLanguage(wallLanguage).then(
      (back) => (live ? (undo = back) : back()),
      () => undefined,
    );
    return () => {
      live = false;
      undo?.();
    };
  }, [wallLanguage]);

  const names = coupleNames(settings.value);
  const handlers = { onEnded: player.ended, onFailed: player.failed, onDuration: player.videoDuration };
  if (!checked && pausedLive === null) return <main className="wall" data-paused="unknown" />;
  if (paused)
    return (
      <main className="wall wall-paused" data-paused="true">
        <ShareCorner />
      </main>
    );
  return (
    <main className="wall" data-shown={shown} data-paused="false" style={{ '--wall-fade': `${player.fadeMs}ms` } as CSSProperties}>
      {previous && <WallMedia key={previous.key} slide={previous} leaving {...handlers} />}
      {current && <WallMedia key={current.key} slide={current} leaving={false} {...handlers} />}
      {empty && !current && !previous && (
        <div className={coverUrl.value ? 'wall-empty wall-cover' : 'wall-empty'}>
          {coverUrl.value && <img className="wall-cover-image" src={coverUrl.value} alt="" />}
          {names && <h1>{names}</h1>}
          <p>{t('wall.empty')}</p>
        </div>
      )}
      <ShareCorner />
    </main>
  );
}
