import '../shared-chunk';
import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type CSSProperties } from 'react';
import type { GalleryItem, LiveEventData, WallLayout } from '../../common/api-types';
import { BusiestTables, useBusiestTables } from '../components/wall/BusiestTables';
import { startHeartbeat } from '../components/wall/heartbeat';
import { cycleAt, tilesFor, type ShownLayout } from '../components/wall/layouts';
import { WallPlayer } from '../components/wall/player';
import { preloadImage, preloadStill } from '../components/wall/preload';
import { ShareCorner } from '../components/wall/ShareCorner';
import { TileBoard } from '../components/wall/tile-board';
import { isMessage } from '../components/wall/types';
import { WallFeed } from '../components/wall/wall-feed';
import { WallMedia } from '../components/wall/WallMedia';
import { WallEmpty } from '../components/wall/WallEmpty';
import { WallTiles } from '../components/wall/WallTiles';
import { TileMedia, VIDEO_MAX_MS } from '../components/wall/WallVideo';
import { keepScreenOn } from '../components/wall/wake-lock';
import { isShipped, language, loadLanguage, showLanguage } from '../i18n';
import { coupleNames, coverUrl, loadSettings, settings } from '../state/settings';

const MAX_ITEMS = 500;

/** ?<name>=<ms> speeds the show up (long-run tests): `interval` a photo (default 8 s), `cycle` a layout in turn (default 3 min). */
function msFromQuery(name: string, fallback: number, min: number): number {
  const v = Number(new URLSearchParams(window.location.search).get(name));
  return Number.isFinite(v) && v >= min ? Math.min(v, 3_600_000) : fallback;
}

/** Whether the screen is 4:3 or taller rather than wide (16:9): fewer tiles then. */
function useNarrow(): boolean {
  const query = '(max-aspect-ratio: 3/2)';
  const [narrow, setNarrow] = useState(() => window.matchMedia?.(query).matches ?? false);
  useEffect(() => {
    const mq = window.matchMedia?.(query);
    if (!mq) return;
    const on = () => setNarrow(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  return narrow;
}

/** `cycle`: the three layouts in turn, `eachMs` each; any other layout as it is. */
function useShownLayout(layout: WallLayout, eachMs: number): ShownLayout {
  const [now, setNow] = useState(0);
  const started = useRef(Date.now());
  useEffect(() => {
    if (layout !== 'cycle') return;
    started.current = Date.now();
    setNow(0);
    const timer = setInterval(() => setNow(Date.now() - started.current), Math.min(eachMs, 5000));
    return () => clearInterval(timer);
  }, [layout, eachMs]);
  return layout === 'cycle' ? cycleAt(now, eachMs) : layout;
}

type Controls = Pick<LiveEventData['wall-state'], 'paused' | 'blank' | 'layout'>;

/**
 * /wall: the reception screen. Visible photos one at a time with a crossfade (single), as a grid
 * (mosaic), as one large with a few small (magazine), or the three in turn (cycle); new ones arrive
 * over GET /api/events; hidden ones leave at once. The couple's remote pauses it, draws a curtain
 * over it, changes its layout, steps it and puts a short announcement over it, all without a reload.
 */
export default function WallPage() {
  useSignals();
  const intervalMs = useMemo(() => msFromQuery('interval', 8000, 20), []);
  const cycleMs = useMemo(() => msFromQuery('cycle', 3 * 60_000, 200), []);
  const tablesMs = useMemo(() => msFromQuery('tables', 5 * 60_000, 200), []);
  const player = useMemo(
    () =>
      new WallPlayer({
        intervalMs,
        fadeMs: Math.min(1200, Math.round(intervalMs / 2)),
        videoMaxMs: VIDEO_MAX_MS,
        // A message is text: nothing to fetch before it shows.
        preload: (item) => (isMessage(item) ? Promise.resolve() : item.backblaze_url ? preloadImage(item.backblaze_url) : Promise.reject(new Error('no display image'))),
        max: MAX_ITEMS,
      }),
    [intervalMs],
  );
  const { current, previous, shown, empty } = useSyncExternalStore(player.subscribe, player.getState);
  // The couple's controls: from the settings when the wall opens (or reconnects), then from wall-state events.
  const [live, setLive] = useState<Controls | null>(null);
  // Until the first look-up answers, nothing shows: a wall opened while paused never flashes a photo.
  const [checked, setChecked] = useState(false);
  const s = settings.value;
  const paused = live?.paused ?? s?.wall_paused ?? false;
  const blank = live?.blank ?? s?.wall_blank ?? false;
  const layout: WallLayout = live?.layout ?? s?.wall_layout ?? 'single';
  const shownLayout = useShownLayout(layout, cycleMs);
  const narrow = useNarrow();
  const tiles = tilesFor(shownLayout, narrow);
  const [announcement, setAnnouncement] = useState<{ text: string; key: number } | null>(null);
  const [spotlight, setSpotlight] = useState<GalleryItem | null>(null);
  const board = useRef<TileBoard | null>(null);
  const commands = useRef<(c: LiveEventData['wall-command']) => void>(() => undefined);

  useEffect(() => {
    const lookUp = () => {
      setLive(null);
      return loadSettings(true);
    };
    void lookUp().finally(() => setChecked(true));
    let announceTimer: ReturnType<typeof setTimeout> | undefined;
    const feed = new WallFeed(player, {
      max: MAX_ITEMS,
      refreshMs: 30 * 60_000,
      mediaRetryMs: 10_000,
      mediaRetries: 30,
      onWallState: (st) => setLive((was) => ({ paused: st.paused, blank: st.blank ?? was?.blank ?? false, layout: st.layout ?? was?.layout ?? 'single' })),
      onResync: lookUp,
      onCommand: (c) => commands.current(c),
      onAnnounce: ({ text, seconds }) => {
        clearTimeout(announceTimer);
        setAnnouncement({ text, key: Date.now() });
        announceTimer = setTimeout(() => setAnnouncement(null), seconds * 1000);
      },
      onChange: () => board.current?.refresh(),
      onRemove: (id) => {
        board.current?.remove(id);
        setSpotlight((sp) => (sp?.id === id ? null : sp));
      },
    });
    feed.start();
    const releaseScreen = keepScreenOn();
    document.documentElement.classList.add('wall-mode');
    return () => {
      clearTimeout(announceTimer);
      feed.stop();
      player.dispose();
      releaseScreen();
      document.documentElement.classList.remove('wall-mode');
    };
  }, [player]);

  // Mosaic and magazine: a board of tiles while that layout is up; the single slideshow waits meanwhile.
  const [boardNow, setBoardNow] = useState<TileBoard | null>(null);
  useEffect(() => {
    const hidden = blank || paused;
    player.hold(tiles > 0 || blank);
    if (!tiles || hidden) return;
    const b = new TileBoard({ rotation: player.rotation, intervalMs, mode: shownLayout === 'mosaic' ? 'one' : 'all', preload: preloadStill }, tiles);
    board.current = b;
    setBoardNow(b);
    b.start();
    return () => {
      b.dispose();
      if (board.current === b) board.current = null;
      setBoardNow(null);
    };
  }, [player, shownLayout, tiles, intervalMs, blank, paused]);

  // The remote's next, previous and "show this photo now", for whichever layout is up.
  useEffect(() => {
    let spotTimer: ReturnType<typeof setTimeout> | undefined;
    commands.current = (c) => {
      const b = board.current;
      if (c.command === 'show') {
        if (!b) return void player.showNow(c.photo_id);
        const item = player.rotation.get(c.photo_id);
        if (!item || isMessage(item)) return;
        clearTimeout(spotTimer);
        setSpotlight(item);
        spotTimer = setTimeout(() => setSpotlight(null), intervalMs * 2);
      } else if (b) {
        setSpotlight(null);
        if (c.command === 'next') b.next();
        else b.previous();
      } else if (c.command === 'next') player.next();
      else player.previous();
    };
    return () => clearTimeout(spotTimer);
  }, [player, intervalMs]);

  // The heartbeat: what this wall shows, every 15 s and on every change.
  const showingRef = useRef<{ showing: string | null; paused: boolean; blank: boolean; layout: WallLayout }>({ showing: null, paused, blank, layout });
  const boardState = useSyncExternalStore(boardNow?.subscribe ?? noSubscribe, boardNow?.getState ?? noBoard);
  const showing = blank ? null : spotlight ? spotlight.id : boardNow ? (boardState.tiles[0]?.item.id ?? null) : current && !isMessage(current.item) ? current.item.id : null;
  showingRef.current = { showing, paused, blank, layout };
  const heart = useRef<ReturnType<typeof startHeartbeat> | null>(null);
  useEffect(() => {
    heart.current = startHeartbeat(() => showingRef.current);
    return () => heart.current?.stop();
  }, []);
  useEffect(() => heart.current?.beat(), [showing, paused, blank, layout]);

  // The wall speaks ?lang= or the wedding's default language, whatever this browser chose.
  const asked = new URLSearchParams(window.location.search).get('lang');
  const wallLanguage = isShipped(asked) ? asked : s?.default_language;
  useEffect(() => {
    // The wall's own texts (a catalogue part of their own) in the language the page already shows.
    void loadLanguage(language.peek()).catch(() => undefined);
  }, []);
  useEffect(() => {
    if (!wallLanguage) return;
    let alive = true;
    let undo: (() => void) | undefined;
    void showLanguage(wallLanguage).then(
      (back) => (alive ? (undo = back) : back()),
      () => undefined,
    );
    return () => {
      alive = false;
      undo?.();
    };
  }, [wallLanguage]);

  const busiest = useBusiestTables((s?.tables ?? 0) > 0 && !blank && !paused, tablesMs, Math.max(intervalMs, 4000));
  const names = coupleNames(s);
  const tablesSlide = busiest && <BusiestTables tables={busiest} />;
  const notice = announcement && (
    <div className="wall-announcement" role="status" key={announcement.key} data-testid="wall-announcement">
      <p>{announcement.text}</p>
    </div>
  );
  const handlers = { onEnded: player.ended, onFailed: player.failed, onDuration: player.videoDuration };
  if (!checked && live === null) return <main className="wall" data-paused="unknown" />;
  // The curtain: a calm screen with the names, nothing else (no photo, no QR code, no address).
  if (blank)
    return (
      <main className="wall wall-curtain" data-blank="true" data-paused={String(paused)}>
        <h1 className="wall-curtain-names">{names}</h1>
        {notice}
      </main>
    );
  if (paused)
    return (
      <main className="wall wall-paused" data-paused="true" data-blank="false">
        <ShareCorner />
        {notice}
      </main>
    );
  const style = { '--wall-fade': `${player.fadeMs}ms` } as CSSProperties;
  if (boardNow)
    return (
      <main className={`wall wall-board wall-${shownLayout}`} data-layout={shownLayout} data-aspect={narrow ? '4:3' : '16:9'} data-shown={boardState.shown} data-paused="false" data-blank="false" style={style}>
        <WallTiles tiles={boardState.tiles} size={tiles} empty={empty} names={names} />
        {spotlight && (
          <div className="wall-spotlight" data-testid="wall-spotlight" data-photo-id={spotlight.id}>
            <TileMedia item={spotlight} className="wall-media" />
            <ShareCorner />
          </div>
        )}
        {tablesSlide}
        {notice}
      </main>
    );
  return (
    <main className="wall" data-layout="single" data-aspect={narrow ? '4:3' : '16:9'} data-shown={shown} data-paused="false" data-blank="false" style={style}>
      {previous && <WallMedia key={previous.key} slide={previous} leaving {...handlers} />}
      {current && <WallMedia key={current.key} slide={current} leaving={false} {...handlers} />}
      {empty && !current && !previous && <WallEmpty names={names} cover={coverUrl.value} />}
      <ShareCorner />
      {tablesSlide}
      {notice}
    </main>
  );
}

const noSubscribe = () => () => undefined;
const emptyBoard = { tiles: [], shown: 0 };
const noBoard = () => emptyBoard;
