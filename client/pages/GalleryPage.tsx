import ArrowLeft from 'lucide-react/icons/arrow-left';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { GalleryItem } from '../../common/api-types';
import { fetchPhotos } from '../api/guest';
import { Footer } from '../components/Footer';
import { GalleryGrid, GallerySkeleton } from '../components/guest/GalleryGrid';
import { MediaViewer } from '../components/guest/MediaViewer';
import { toast } from '../components/ui/toast';
import { MomentFilter, useMomentsWithPhotos } from '../components/guest/MomentFilter';
import { formatInZone } from '../components/zoned-time';
import { settings } from '../state/settings';
import { useSignals } from '@preact/signals-react/runtime';

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

export function GalleryPage() {
  useSignals();
  const moments = useMomentsWithPhotos();
  const [moment, setMoment] = useState<string | null>(null);
  const momentRef = useRef<string | null>(null);
  const [s, setS] = useState<State>({ items: [], total: 0, hasMore: false, loading: 'first', error: null });
  const [open, setOpen] = useState<GalleryItem | null>(null);
  const trigger = useRef<HTMLElement | null>(null);
  const busy = useRef(false);

  const load = useCallback(async (offset: number, mode: 'first' | 'more' | 'refresh') => {
    if (busy.current) return;
    busy.current = true;
    setS((p) => ({ ...p, loading: mode, error: mode === 'more' ? p.error : null }));
    const asked = momentRef.current;
    const r = await fetchPhotos(offset, undefined, asked ?? undefined);
    // A page for the moment chosen before the current one is dropped.
    if (asked !== momentRef.current) return;
    busy.current = false;
    if (!r.success) {
      const message = r.error || 'Failed to load photos';
      toast({ title: 'Error', description: message, variant: 'destructive' });
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
    void load(0, 'first');
  }, [load]);

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
          <ArrowLeft aria-hidden="true" size={18} /> Back to Upload
        </Link>
        <header className="gallery-header">
          <div>
            <h1>Wedding Photo &amp; Video Gallery</h1>
            <p className="muted" data-testid="gallery-count">
              {s.total} photo(s) and video(s) shared by our guests
            </p>
          </div>
          <button type="button" className="btn btn-outline" onClick={() => void load(0, 'refresh')} disabled={s.loading !== null}>
            <RefreshCw aria-hidden="true" size={18} className={s.loading === 'refresh' ? 'spin' : undefined} /> Refresh
          </button>
        </header>

        <MomentFilter moments={moments} value={moment} onChange={chooseMoment} />

        {firstLoad && <GallerySkeleton />}

        {s.opensAt && !firstLoad && (
          <div className="card gallery-message" role="status">
            <h2>The Gallery Opens Soon</h2>
            <p className="muted">The gallery opens on {formatInZone(s.opensAt, settings.value?.time_zone)}. Keep sharing your photos and videos until then!</p>
            <Link href="/live" className="btn">
              Upload Photos &amp; Videos
            </Link>
          </div>
        )}

        {showError && !firstLoad && (
          <div className="card gallery-message" role="alert">
            <h2>Unable to Load Gallery</h2>
            <p className="muted">{s.error}</p>
            <button type="button" className="btn" onClick={() => void load(0, 'first')}>
              Try Again
            </button>
          </div>
        )}

        {!firstLoad && !showError && !s.opensAt && s.items.length === 0 && s.loading === null && (
          <div className="card gallery-message">
            <h2>No Photos or Videos Yet</h2>
            <p className="muted">Be the first to share a memory from our special day!</p>
            <Link href="/live" className="btn">
              Upload Photos &amp; Videos
            </Link>
          </div>
        )}

        {s.items.length > 0 && (
          <GalleryGrid
            items={s.items}
            onOpen={(item, el) => {
              trigger.current = el;
              setOpen(item);
            }}
          />
        )}

        {s.items.length > 0 && s.hasMore && (
          <div className="gallery-more">
            <button type="button" className="btn btn-outline" onClick={() => void load(s.items.length, 'more')} disabled={s.loading !== null}>
              {s.loading === 'more' ? 'Loading...' : 'Load More Media'}
            </button>
          </div>
        )}
      </main>
      <Footer />
      {open && <MediaViewer item={open} onClose={close} />}
    </div>
  );
}
