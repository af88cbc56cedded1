import HeartIcon from 'lucide-react/icons/heart';
import { useRef } from 'react';
import type { GalleryItem } from '../../../common/api-types';
import { ApiError } from '../../api/http';
import { sendHeart } from '../../api/guest';
import { t } from '../../i18n';
import { toast } from '../ui/toast';

type Hearts = Pick<GalleryItem, 'hearted' | 'hearts'>;

/** The heart with its count; pressed while this guest loves the photo. */
export function HeartButton({ item, onHeart, className = '' }: { item: GalleryItem; onHeart(item: GalleryItem): void; className?: string }) {
  return (
    <button type="button" className={'heart ' + className} aria-pressed={item.hearted} aria-label={t('gallery.heart', { count: item.hearts })} onClick={() => onHeart(item)}>
      <HeartIcon aria-hidden="true" size={18} />
      {item.hearts || null}
    </button>
  );
}

/**
 * A heart shows at once and is sent after; a failure puts back what the server last confirmed
 * and says so. One request at a time per photo, so the server keeps the guest's last tap.
 */
export function useHearts(patch: (id: string, hearts: Hearts) => void): (item: GalleryItem) => void {
  const last = useRef(new Map<string, Promise<void>>());
  const confirmed = useRef(new Map<string, Hearts>());
  return (item) => {
    const { id } = item;
    const on = !item.hearted;
    if (!confirmed.current.has(id)) confirmed.current.set(id, { hearted: item.hearted, hearts: item.hearts });
    patch(id, { hearted: on, hearts: item.hearts + (on ? 1 : -1) });
    const settle = (h: Hearts | null, err?: unknown) => {
      if (h) confirmed.current.set(id, h);
      if (last.current.get(id) !== sent) return; // a later tap is on its way
      patch(id, h ?? confirmed.current.get(id)!);
      confirmed.current.delete(id);
      if (!h) toast({ title: t('app.error'), description: err instanceof ApiError ? err.message : t('gallery.heart_failed'), variant: 'destructive' });
    };
    const sent: Promise<void> = (last.current.get(id) ?? Promise.resolve()).then(() =>
      sendHeart(id, on).then(
        (r) => settle({ hearted: r.hearted, hearts: r.hearts }),
        (err: unknown) => settle(null, err),
      ),
    );
    last.current.set(id, sent);
  };
}
