import type { AdminPhoto } from '../../common/api-types';

/** The /admin/photos screen's view state and its rules (SPEC §4 "Admin photo visibility"). */
export type PhotoMode = 'all' | 'queue';

export interface PhotosView {
  mode: PhotoMode;
  page: number;
  showAll: boolean;
  selectMode: boolean;
  selected: ReadonlySet<string>;
  skipped: ReadonlySet<string>;
  /** Only the photos a guest sent under this name; null: everyone's. */
  uploader: string | null;
}

export const initialView = (): PhotosView => ({
  mode: 'all',
  page: 1,
  showAll: true,
  selectMode: false,
  selected: new Set(),
  skipped: new Set(),
  uploader: null,
});

export type ViewAction =
  | { type: 'mode'; mode: PhotoMode }
  | { type: 'page'; page: number }
  | { type: 'toggleShowAll' }
  | { type: 'toggleSelectMode' }
  | { type: 'toggle'; id: string }
  | { type: 'selectAll'; ids: string[] }
  | { type: 'clearSelection' }
  | { type: 'listChanged' }
  | { type: 'skip'; id: string }
  | { type: 'showSkipped' }
  | { type: 'uploader'; uploader: string | null };

const EMPTY: ReadonlySet<string> = new Set();

export function viewReducer(s: PhotosView, a: ViewAction): PhotosView {
  switch (a.type) {
    case 'mode':
      // Changing the mode resets the page, the selection, the skipped items and the guest filter (All mode only).
      if (a.mode === s.mode) return s;
      return { ...s, mode: a.mode, page: 1, selectMode: false, selected: EMPTY, skipped: EMPTY, uploader: null };
    case 'page':
      return a.page === s.page ? s : { ...s, page: Math.max(1, a.page), selected: EMPTY };
    case 'toggleShowAll':
      return { ...s, showAll: !s.showAll, page: 1, selected: EMPTY };
    case 'toggleSelectMode':
      return { ...s, selectMode: !s.selectMode, selected: EMPTY };
    case 'toggle': {
      const next = new Set(s.selected);
      if (!next.delete(a.id)) next.add(a.id);
      return { ...s, selected: next };
    }
    case 'selectAll':
      return { ...s, selected: new Set(a.ids) };
    case 'clearSelection':
    case 'listChanged':
      return s.selected.size === 0 ? s : { ...s, selected: EMPTY };
    case 'skip': {
      const skipped = new Set(s.skipped).add(a.id);
      const selected = new Set(s.selected);
      selected.delete(a.id);
      return { ...s, skipped, selected };
    }
    case 'showSkipped':
      return { ...s, skipped: EMPTY };
    case 'uploader':
      return a.uploader === s.uploader ? s : { ...s, uploader: a.uploader, page: 1, selected: EMPTY };
  }
}

/** SPEC §7: in queue mode the client keeps only hidden photos that were not skipped. */
export function queuePhotos(photos: AdminPhoto[], skipped: ReadonlySet<string>): AdminPhoto[] {
  return photos.filter((p) => !p.is_visible && !skipped.has(p.id));
}

export const hiddenCount = (photos: AdminPhoto[]): number => photos.filter((p) => !p.is_visible).length;

/** SPEC §9: 20 per page, 50 in the queue. */
export const perPage = (mode: PhotoMode): number => (mode === 'queue' ? 50 : 20);
