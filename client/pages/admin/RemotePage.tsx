import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import ChevronLeft from 'lucide-react/icons/chevron-left';
import ChevronRight from 'lucide-react/icons/chevron-right';
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import type { GalleryItem, WallControls, WallLayout } from '../../../common/api-types';
import { errorText } from '../../api/admin';
import { wallRemote } from '../../components/admin/wall-remote-api';
import { useWalls, WallsStatus } from '../../components/admin/WallsStatus';
import { t } from '../../components/admin/t';
import { handleUnauthorized } from '../../state/admin';
import { language } from '../../i18n';

const LAYOUTS: { id: WallLayout; label: () => string }[] = [
  { id: 'single', label: () => t('admin.remote.layout_single') },
  { id: 'mosaic', label: () => t('admin.remote.layout_mosaic') },
  { id: 'magazine', label: () => t('admin.remote.layout_magazine') },
  { id: 'cycle', label: () => t('admin.remote.layout_cycle') },
];
const SECONDS = [10, 20, 30, 60];
/** "20 seconds" in the panel's language, as the browser words it. */
const secondsText = (n: number) => new Intl.NumberFormat(language.value, { style: 'unit', unit: 'second', unitDisplay: 'long' }).format(n);
const MAX_CHARS = 140;

/**
 * /admin/remote: the couple's remote for the reception wall, made for a phone (360 px) and for
 * every signed-in role: pause, curtain, previous and next, the layout, a photo now, and a short
 * announcement over the wall. Every open wall follows within a second.
 */
export function RemotePage() {
  const id = useId();
  const walls = useWalls();
  const [controls, setControls] = useState<WallControls | null>(null);
  const [photos, setPhotos] = useState<GalleryItem[]>([]);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const [working, setWorking] = useState(false);
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [text, setText] = useState('');
  const [seconds, setSeconds] = useState(20);

  useEffect(() => {
    let live = true;
    wallRemote
      .controls()
      .then((r) => live && setControls(r.wall))
      .catch((err) => live && !handleUnauthorized(err) && setStatus({ text: errorText(err, t('admin.wall.change_failed')), error: true }));
    wallRemote
      .recent()
      .then((r) => live && setPhotos(r.photos.filter((p) => p.backblaze_url && /^(image|video)\//.test(p.content_type))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  /**
   * Runs one call to the server; says what happened in the status line (read out by screen readers).
   * Buttons stay enabled while a call runs (a disabled button would lose the keyboard's focus): calls
   * go out one after another in the order pressed, none dropped.
   */
  const run = (call: () => Promise<unknown>, done: string): Promise<boolean> => {
    const next = queue.current.then(async () => {
      setWorking(true);
      try {
        await call();
        setStatus({ text: done, error: false });
        return true;
      } catch (err) {
        if (!handleUnauthorized(err)) setStatus({ text: errorText(err, t('admin.wall.change_failed')), error: true });
        return false;
      } finally {
        setWorking(false);
      }
    });
    queue.current = next;
    return next;
  };
  // The choice shows at once; the server's answer (what the walls now follow) replaces it.
  const set = (patch: Partial<WallControls>, done: string) => {
    setControls((c) => (c ? { ...c, ...patch } : c));
    return run(async () => setControls((await wallRemote.set(patch)).wall), done);
  };

  const announce = async (e: FormEvent) => {
    e.preventDefault();
    if (await run(() => wallRemote.announce(text.trim(), seconds), t('admin.remote.sent'))) setText('');
  };

  const paused = controls?.paused ?? false;
  const blank = controls?.blank ?? false;
  return (
    <div className="remote-page" aria-busy={working}>
      <h1>{t('admin.remote.title')}</h1>
      <WallsStatus walls={walls} />
      <p className={status?.error ? 'remote-status remote-error' : 'remote-status'} role="status" data-testid="remote-status">
        {status?.text}
      </p>

      <section className="card remote-section" aria-labelledby={`${id}-now`}>
        <h2 id={`${id}-now`} className="sr-only">
          {t('admin.remote.title')}
        </h2>
        <div className="remote-row">
          <button type="button" className="btn btn-outline remote-big" disabled={!controls} onClick={() => void run(() => wallRemote.command({ command: 'previous' }), t('admin.remote.sent'))}>
            <ChevronLeft size={22} aria-hidden="true" />
            {t('admin.remote.previous')}
          </button>
          <button type="button" className="btn btn-outline remote-big" disabled={!controls} onClick={() => void run(() => wallRemote.command({ command: 'next' }), t('admin.remote.sent'))}>
            {t('admin.remote.next')}
            <ChevronRight size={22} aria-hidden="true" />
          </button>
        </div>
        <div className="remote-row">
          <button type="button" className="btn btn-outline remote-big" aria-pressed={paused} disabled={!controls} onClick={() => void set({ paused: !paused }, paused ? t('admin.wall.resumed') : t('admin.wall.paused'))}>
            {paused ? <Play size={20} aria-hidden="true" /> : <Pause size={20} aria-hidden="true" />}
            {paused ? t('admin.wall.resume') : t('admin.wall.pause')}
          </button>
          <button type="button" className="btn btn-outline remote-big" aria-pressed={blank} aria-describedby={`${id}-curtain`} disabled={!controls} onClick={() => void set({ blank: !blank }, t('admin.remote.sent'))}>
            {blank ? t('admin.remote.uncurtain') : t('admin.remote.curtain')}
          </button>
        </div>
        <p id={`${id}-curtain`} className="muted remote-hint">
          {t('admin.remote.curtain_hint')}
        </p>
      </section>

      <fieldset className="card remote-section remote-layouts" disabled={!controls}>
        <legend>{t('admin.remote.layout')}</legend>
        {LAYOUTS.map((l) => (
          <label key={l.id} className="remote-choice">
            <input type="radio" name={`${id}-layout`} value={l.id} checked={controls?.layout === l.id} onChange={() => void set({ layout: l.id }, t('admin.remote.sent'))} />
            {l.label()}
          </label>
        ))}
      </fieldset>

      <section className="card remote-section" aria-labelledby={`${id}-show`}>
        <h2 id={`${id}-show`}>{t('admin.remote.show_title')}</h2>
        {photos.length === 0 ? (
          <p className="muted">{t('admin.remote.no_photos')}</p>
        ) : (
          <ul className="remote-photos">
            {photos.map((p) => (
              <li key={p.id}>
                <button type="button" className="remote-photo" aria-label={t('admin.remote.show', { file: p.original_filename })} onClick={() => void run(() => wallRemote.command({ command: 'show', photo_id: p.id }), t('admin.remote.sent'))}>
                  <img src={p.thumbnail_url ?? p.backblaze_url ?? undefined} alt="" loading="lazy" />
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      <form className="card remote-section" onSubmit={(e) => void announce(e)} aria-labelledby={`${id}-announce`}>
        <h2 id={`${id}-announce`}>{t('admin.remote.announce_title')}</h2>
        <label htmlFor={`${id}-text`}>{t('admin.remote.announce_label', { max: MAX_CHARS })}</label>
        <textarea id={`${id}-text`} rows={2} maxLength={MAX_CHARS} required value={text} onChange={(e) => setText(e.target.value)} />
        <label htmlFor={`${id}-seconds`}>{t('admin.remote.announce_seconds')}</label>
        <select id={`${id}-seconds`} value={seconds} onChange={(e) => setSeconds(Number(e.target.value))}>
          {SECONDS.map((s) => (
            <option key={s} value={s}>
              {secondsText(s)}
            </option>
          ))}
        </select>
        <button type="submit" className="btn remote-big" disabled={!text.trim()}>
          {t('admin.remote.send')}
        </button>
      </form>
    </div>
  );
}
