import { useState } from 'react';
import type { AdminPhoto } from '../../../common/api-types';
import { adminApi, errorText } from '../../api/admin';
import { handleUnauthorized } from '../../state/admin';
import { toast } from '../ui/toast';
import { deletePhotoConfirm } from './RecentPhotos';
import type { CardAction } from './PhotoCard';
import { t } from './t';

export const rejectConfirm = () => t('admin.photos.confirm_reject');
export const bulkDeleteConfirm = (n: number) => t('admin.photos.confirm_delete_many', { count: n });

/** SPEC §8: the server's error field first, else the fixed sentence, as a destructive toast. */
function fail(err: unknown, fallback: string): void {
  if (handleUnauthorized(err)) return;
  console.error(fallback, err);
  toast({ title: t('app.error'), description: errorText(err, fallback), variant: 'destructive' });
}

/** Calls that a rotate/regenerate answer with {success:false, error} instead of a status. */
function ensure(r: { success?: boolean; error?: string } | null, fallback: string): void {
  if (r && r.success === false) throw Object.assign(new Error(r.error || fallback), { soft: r.error || fallback });
}
const softText = (err: unknown, fallback: string) => (err as { soft?: string })?.soft ?? errorText(err, fallback);

/** Every action of the photos screen; each reloads the list when it changed something. */
export function usePhotoActions(reload: () => Promise<void> | void) {
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [regeneratingAll, setRegeneratingAll] = useState(false);

  const mark = (id: string, on: boolean) =>
    setBusy((b) => {
      const n = new Set(b);
      if (on) n.add(id);
      else n.delete(id);
      return n;
    });

  const run = async (work: () => Promise<unknown>, fallback: string, reloadAfter = true): Promise<boolean> => {
    try {
      await work();
      if (reloadAfter) await reload();
      return true;
    } catch (err) {
      fail(err, fallback);
      return false;
    }
  };

  const busyRun = async (id: string, work: () => Promise<{ success?: boolean; error?: string }>, fallback: string) => {
    mark(id, true);
    try {
      ensure(await work(), fallback);
      await reload();
    } catch (err) {
      if (!handleUnauthorized(err)) {
        console.error(fallback, err);
        toast({ title: t('app.error'), description: softText(err, fallback), variant: 'destructive' });
      }
    } finally {
      mark(id, false);
    }
  };

  const cardAction = async (p: AdminPhoto, action: CardAction) => {
    switch (action) {
      case 'toggle':
        return void (await run(() => adminApi.toggleVisibility(p.id), t('admin.photos.toggle_failed')));
      case 'download':
        try {
          const r = await adminApi.download(p.id);
          if (!r?.download_url) throw new Error('no download_url');
          // The URL answers with Content-Disposition: attachment, so the page stays where it is.
          window.location.assign(r.download_url);
        } catch (err) {
          fail(err, t('admin.photos.download_failed'));
        }
        return;
      case 'highlight':
        return busyRun(p.id, () => adminApi.highlight(p.id, !p.highlighted), t('admin.photos.highlight_failed'));
      case 'rotate':
        return busyRun(p.id, () => adminApi.rotate(p.id), t('admin.photos.rotate_failed'));
      case 'regenerate':
        return busyRun(p.id, () => adminApi.regenerate(p.id), t('admin.photos.regenerate_failed'));
      case 'delete':
        if (!window.confirm(deletePhotoConfirm())) return;
        return void (await run(() => adminApi.deletePhoto(p.id), t('admin.photos.delete_failed')));
    }
  };

  const bulkVisibility = async (ids: string[], action: 'show' | 'hide') => {
    if (ids.length === 0) return;
    await run(async () => {
      const r = await adminApi.bulkVisibility(ids, action);
      if (r?.message) toast({ title: r.message, variant: 'success' });
    }, action === 'show' ? t('admin.photos.show_failed') : t('admin.photos.hide_failed'));
  };

  const bulkDelete = async (ids: string[]) => {
    if (ids.length === 0 || !window.confirm(bulkDeleteConfirm(ids.length))) return;
    await run(async () => {
      const r = await adminApi.bulkDelete(ids);
      if (r?.message) toast({ title: r.message, variant: r.failed_deletes?.length ? 'destructive' : 'success' });
    }, t('admin.photos.delete_many_failed'));
  };

  const regenerateAll = async () => {
    setRegeneratingAll(true);
    try {
      const r = await adminApi.regenerateAll();
      ensure(r, t('admin.photos.regenerate_all_failed'));
      const s = r.statistics ?? { processed: 0, succeeded: 0, failed: 0 };
      window.alert(t('admin.photos.regenerated', { processed: s.processed, succeeded: s.succeeded, failed: s.failed }));
      await reload();
    } catch (err) {
      if (!handleUnauthorized(err)) toast({ title: t('app.error'), description: softText(err, t('admin.photos.regenerate_all_failed')), variant: 'destructive' });
    } finally {
      setRegeneratingAll(false);
    }
  };

  const approve = (id: string) => run(() => adminApi.photoAction(id, 'approve'), t('admin.photos.approve_failed'));
  /** `confirmed`: the keyboard's R then Enter already asked. */
  const reject = async (id: string, confirmed = false) => {
    if (!confirmed && !window.confirm(rejectConfirm())) return;
    await run(() => adminApi.deletePhoto(id), t('admin.photos.reject_failed'));
  };
  const keepBest = (id: string) => busyRun(id, () => adminApi.keepBest(id), t('admin.queue.keep_best_failed'));
  const approveMany = async (ids: string[]) => {
    if (ids.length === 0) return;
    await run(() => adminApi.bulkVisibility(ids, 'show'), t('admin.photos.approve_many_failed'));
  };

  return { busy, regeneratingAll, cardAction, bulkVisibility, bulkDelete, regenerateAll, approve, reject, approveMany, keepBest };
}
