import ArrowLeft from 'lucide-react/icons/arrow-left';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import ScanFace from 'lucide-react/icons/scan-face';
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { GalleryItem, GalleryResponse } from '../../common/api-types';
import { GALLERY_FIRST_PAGE } from '../../common/gallery';
import { fetchPhotos } from '../api/guest';
import { earlyAnswer } from '../api/http';
import { Footer } from '../components/Footer';
import { GalleryGrid, GallerySkeleton } from '../components/guest/GalleryGrid';
import { toast } from '../components/ui/toast';
import { MomentFilter, useGalleryChoices } from '../components/guest/MomentFilter';
import { useHearts } from '../components/guest/Heart';
import { formatInZone } from '../i18n/format';
import { t, withTexts } from '../i18n';
import { settings } from '../state/settings';
import { useSignals } from '@preact/signals-react/runtime';

// "Find photos of me" and its texts load only when a guest opens it.
const FacePanel = lazy(() => withTexts(import('../components/faces/FacePanel')));
// The viewer loads with the first photo a guest opens (its texts are the guest pages' own).
const MediaViewer = lazy(() => import('../components/guest/MediaViewer').then((m) => ({ default: m.MediaViewer })));

interface State {
  items: GalleryItem[];
  total: number;
  hasMore: boolean;
  /** 'first' until the first page arrives; 'more' while "Load More Media" runs. */
  loading: 'first' | 'more' | 'refresh' | null;
  error: string | null;
  /** Set while the couple keep the gallery closed: when it opens. */
  opensAt?: string;
}

/**
 * The first page the server drew into the page's HTML with its tiles (server/http/gallery-html.ts):
 * the first render shows exactly them, so it takes the place of that markup without a change.
 */
function firstState(): State {
  const page = earlyAnswer<GalleryResponse>(GALLERY_FIRST_PAGE);
  if (!page?.photos?.length) return { items: [], total: 0, hasMore: false, loading: 'first', error: null };
  return { items: page.photos, total: page.pagination.total, hasMore: page.pagination.has_more, loading: null, error: null };
}

export function GalleryPage() {
  useSignals();
  // The filter's choice: a moment, "Most loved" or the highlights, as the address asks for it; null: all.
  const [moment, setMoment] = useState<string | null>(null);
  const momentRef = useRef<string | null>(null);
  const [s, setS] = useState<State>(firstState);
  const drawn = useRef(s.loading === null);
  const [openId, setOpen] = useState<string | null>(null);
  const open = s.items.find((i) => i.id === openId);
  const heart = useHearts((id, h) => setS((p) => ({ ...p, items: p.items.map((i) => (i.id === id ? { ...i, ...h } : i)) })));
  const downloads = settings.value?.guest_downloads;
  const trigger = useRef<HTMLElement | null>(null);
  const busy = useRef(false);
  const [faces, setFaces] = useState(false);
  /** The photos the guest is in, shown instead of the gallery while the face search is open. */
  const [mine, setMine] = useState<GalleryItem[] | null>(null);
  const faceButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  const closeFaces = useCallback(() => {
    setFaces(false);
    setMine(null);
    refocus.current = true;
  }, []);
  // The entry button is back once the panel is gone: the focus returns to it.
  useEffect(() => {
    if (faces || !refocus.current) return;
    refocus.current = false;
    faceButton.current?.focus();
  }, [faces]);
  const faceSearch = settings.value?.face_search && (!settings.value.face_search_until || Date.parse(settings.value.face_search_until) > Date.now());

  const load = useCallback(async (offset: number, mode: 'first' | 'more' | 'refresh') => {
    if (busy.current) return;
    busy.current = true;
    setS((p) => ({ ...p, loading: mode, error: mode === 'more' ? p.error : null }));
    const asked = momentRef.current;
    const r = await fetchPhotos(offset, undefined, asked);
    // A page for the moment chosen before the current one is dropped.
    if (asked !== momentRef.current) return;
    busy.current = false;
    if (!r.success) {
      const message = r.error || t('gallery.load_failed');
      toast({ title: t('app.error'), description: message, variant: 'destructive' });
      setS((p) => ({ ...p, loading: null, error: p.items.length && mode !== 'first' ? p.error : message }));
      return;
    }
    setS((p) => {
      const base = mode === 'more' ? p.items : [];
      const seen = new Set(base.map((i) => i.id));
      const items = [...base, ...r.photos.filter((i) => !seen.has(i.id))];
      return { items, total: r.pagination.total, hasMore: r.pagination.has_more, loading: null, error: null, opensAt: r.opens_at };
    });
  }, []);

  useEffect(() => {
    if (!drawn.current) void load(0, 'first');
  }, [load]);
  // A tile tapped in the server's markup before this page took over (server/http/gallery-html.ts) opens now.
  useEffect(() => {
    const tapped = (globalThis as { __tapped?: number }).__tapped;
    delete (globalThis as { __tapped?: number }).__tapped;
    if (tapped === undefined || !s.items[tapped]) return;
    trigger.current = document.querySelectorAll<HTMLElement>('.gallery-tile')[tapped] ?? null;
    setOpen(s.items[tapped].id);
  }, []); // once: with the first page, the one it was tapped in
  // The couple's film while they share it, asked for once the first photos are in (never ahead of them).
  const [film, setFilm] = useState<string | null>(null);
  const askedFilm = useRef(false);
  useEffect(() => {
    if (s.loading === 'first' || askedFilm.current) return;
    askedFilm.current = true;
    fetch('/api/keepsakes/film', { credentials: 'include' })
      .then((r) => (r.ok ? r.json() : null))
      .then((b: { film?: { url?: unknown } | null } | null) => setFilm(typeof b?.film?.url === 'string' ? b.film.url : null))
      .catch(() => undefined);
  }, [s.loading]);
  // After the first page's request: the filter's own requests wait behind it.
  const choices = useGalleryChoices();

  const chooseMoment = (m: string | null) => {
    momentRef.current = m;
    setMoment(m);
    busy.current = false; // a page still loading for the previous choice is dropped when it arrives
    void load(0, 'first');
  };

  const close = useCallback(() => {
    setOpen(null);
    trigger.current?.focus();
  }, []);

  const showError = s.error !== null && s.items.length === 0;
  const firstLoad = s.loading === 'first' && s.items.length === 0;

  return (
    <div className="page">
      <main className="container gallery-page">
        <Link href="/live" className="back-link">
          <ArrowLeft aria-hidden="true" size={18} className="flip-rtl" /> {t('gallery.back')}
        </Link>
        <header className="gallery-header">
          <div>
            <h1>{t('gallery.title')}</h1>
            <p className="muted" data-testid="gallery-count">
              {t('gallery.count', { count: s.total })}
            </p>
          </div>
          <div className="gallery-actions">
            {downloads && s.total > 0 && (
              <a className="btn btn-outline" href="/api/export.zip" download>
                {t('gallery.download_all')}
              </a>
            )}
            <button type="button" className="btn btn-outline" onClick={() => void load(0, 'refresh')} disabled={s.loading !== null}>
              <RefreshCw aria-hidden="true" size={18} className={s.loading === 'refresh' ? 'spin' : undefined} /> {t('gallery.refresh')}
            </button>
          </div>
        </header>

        {faceSearch && !faces && (
          <button type="button" ref={faceButton} className="btn btn-outline face-entry" onClick={() => setFaces(true)}>
            <ScanFace aria-hidden="true" size={18} /> {t('gallery.find_me')}
          </button>
        )}
        {faces && (
          <Suspense fallback={<div className="skeleton face-skeleton" aria-busy="true" />}>
            <FacePanel
              until={settings.value?.face_search_until ? formatInZone(settings.value.face_search_until, settings.value.time_zone) : null}
              onMatches={setMine}
              onClose={closeFaces}
            />
          </Suspense>
        )}

        {film && mine === null && (
          // A plain card (a chunk of its own would cost the guest pages more): the player fetches nothing before play.
          <section className="card shared-film" aria-labelledby="shared-film" data-testid="shared-film">
            <h2 id="shared-film">{t('gallery.film.title')}</h2>
            <video controls preload="none" playsInline src={film} aria-labelledby="shared-film" />
          </section>
        )}

        {mine === null && <MomentFilter choices={s.total || moment ? choices : []} value={moment} onChange={chooseMoment} />}

        {firstLoad && <GallerySkeleton />}

        {s.opensAt && !firstLoad && (
          <div className="card gallery-message" role="status">
            <h2>{t('gallery.opens_soon.title')}</h2>
            <p className="muted">{t('gallery.opens_soon.text', { when: formatInZone(s.opensAt, settings.value?.time_zone) })}</p>
            <Link href="/live" className="btn">
              {t('app.upload_photos_videos')}
            </Link>
          </div>
        )}

        {showError && !firstLoad && (
          <div className="card gallery-message" role="alert">
            <h2>{t('gallery.error.title')}</h2>
            <p className="muted">{s.error}</p>
            <button type="button" className="btn" onClick={() => void load(0, 'first')}>
              {t('gallery.error.retry')}
            </button>
          </div>
        )}

        {!firstLoad && !showError && !s.opensAt && s.items.length === 0 && s.loading === null && (
          <div className="card gallery-message">
            <h2>{t('gallery.empty.title')}</h2>
            <p className="muted">{t('gallery.empty.text')}</p>
            <Link href="/live" className="btn">
              {t('app.upload_photos_videos')}
            </Link>
          </div>
        )}

        {(mine ?? s.items).length > 0 && (
          <GalleryGrid
            items={mine ?? s.items}
            onOpen={(item, el) => {
              trigger.current = el;
              setOpen(item.id);
            }}
            onHeart={heart}
          />
        )}

        {mine === null && s.items.length > 0 && s.hasMore && (
          <div className="gallery-more">
            <button type="button" className="btn btn-outline" onClick={() => void load(s.items.length, 'more')} disabled={s.loading !== null}>
              {s.loading === 'more' ? t('gallery.loading_more') : t('gallery.load_more')}
            </button>
          </div>
        )}
      </main>
      <Footer />
      {open && (
        <Suspense fallback={null}>
          <MediaViewer item={open} onClose={close} onHeart={heart} download={downloads} />
        </Suspense>
      )}
    </div>
  );
}
