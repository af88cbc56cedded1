import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import type { AdminPhotoList } from '../../../common/api-types';
import { adminApi } from '../../api/admin';
import { handleUnauthorized, me, permissionsOf } from '../../state/admin';
import { hiddenCount, initialView, perPage, queuePhotos, viewReducer } from '../../state/adminPhotos';
import { ErrorCard } from '../../components/admin/AdminShell';
import { PhotoCard } from '../../components/admin/PhotoCard';
import { ApprovalCard } from '../../components/admin/ApprovalCard';
import { usePhotoActions } from '../../components/admin/usePhotoActions';
import { ExportButtons } from '../../components/admin/ExportButtons';
import { UploaderFilter } from '../../components/admin/UploaderFilter';
import { t } from '../../components/admin/t';
import { stacksOf } from '../../components/admin/stacks';
import { QueueKeysHelp, useQueueKeys } from '../../components/admin/QueueKeys';

/** /admin/photos: All Photos and, for moderators, the Approval Queue (SPEC §2, §4). */
export function PhotosPage() {
  useSignals();
  const perms = permissionsOf(me.value);
  const [view, dispatch] = useReducer(viewReducer, undefined, initialView);
  // The last answer, with the view it was asked for: another mode's list is never shown as this one's.
  const [loaded, setLoaded] = useState<{ mode: string; list: AdminPhotoList } | null>(null);
  const [error, setError] = useState(false);
  const [nonce, setNonce] = useState(0);
  // All mode: only photos processing flagged (blurry, dark, overexposed).
  const [flagged, setFlagged] = useState(false);
  const [front, setFront] = useState<ReadonlySet<string>>(new Set());
  const queue = view.mode === 'queue';
  const list = loaded?.mode === view.mode ? loaded.list : null;
  const asking = useRef(0);

  const load = useCallback(async () => {
    const ask = ++asking.current;
    try {
      const r = await adminApi.photos({
        page: view.page,
        perPage: perPage(view.mode),
        showAll: view.showAll,
        pending: view.mode === 'queue',
        uploader: view.uploader,
        flagged: view.mode === 'all' && flagged,
      });
      // An answer overtaken by a later question (another mode, page or filter) is dropped.
      if (ask !== asking.current) return;
      setLoaded({ mode: view.mode, list: r });
      setError(false);
      dispatch({ type: 'listChanged' });
      // A page emptied by deletions falls back to the last page that exists.
      if (r.photos.length === 0 && view.page > 1 && r.pagination.pages < view.page) dispatch({ type: 'page', page: Math.max(1, r.pagination.pages) });
    } catch (err) {
      if (handleUnauthorized(err) || ask !== asking.current) return;
      console.error('Failed to load photos', err);
      setError(true);
    }
  }, [view.page, view.mode, view.showAll, view.uploader, flagged]);

  useEffect(() => {
    void load();
  }, [load, nonce]);

  const actions = usePhotoActions(load);
  const photos = list?.photos ?? [];
  const shown = queue ? queuePhotos(photos, view.skipped) : photos;
  const selectedIds = [...view.selected];
  const pg = list?.pagination;
  const stacks = queue ? stacksOf(shown, front) : [];
  const keys = useQueueKeys(stacks, queue && !view.selectMode && !!list, {
    approve: (id) => void actions.approve(id),
    skip: (s) => [s.lead, ...s.others].forEach((p) => dispatch({ type: 'skip', id: p.id })),
    reject: (id) => void actions.reject(id, true),
    keepBest: (id) => void actions.keepBest(id),
    canReject: perms.can_delete_photos,
  });

  if (error)
    return (
      <ErrorCard
        message={t('admin.photos.load_failed')}
        onRetry={() => {
          setError(false);
          setNonce((n) => n + 1);
        }}
      />
    );

  const hidden = hiddenCount(photos);
  return (
    <div className="photos-page">
      <div className="photos-head">
        <h1>
          {queue ? t('admin.photos.queue_title') : t('admin.photos.title')}{' '}
          {pg && <span className="photos-count">{queue ? t('admin.photos.count_pending', { count: pg.total }) : t('admin.photos.count_total', { count: pg.total })}</span>}
          {!queue && hidden > 0 && (
            <span className="badge badge-danger photos-hidden-badge" title={t('admin.photos.hidden_badge_title')} role="img" aria-label={t('admin.photos.hidden_badge', { count: hidden })}>
              {hidden}
            </span>
          )}
        </h1>
        {perms.can_moderate_photos && (
          <div className="mode-switch" role="group" aria-label={t('admin.photos.mode')}>
            <button type="button" className={`btn ${queue ? 'btn-outline' : ''}`} aria-pressed={!queue} onClick={() => dispatch({ type: 'mode', mode: 'all' })}>
              {t('admin.photos.mode_all')}
            </button>
            <button type="button" className={`btn ${queue ? '' : 'btn-outline'}`} aria-pressed={queue} onClick={() => dispatch({ type: 'mode', mode: 'queue' })}>
              {t('admin.photos.mode_queue')}
            </button>
          </div>
        )}
      </div>

      <div className="photos-controls">
        {!queue ? (
          <>
            <button type="button" className="btn btn-outline" onClick={() => dispatch({ type: 'toggleShowAll' })}>
              {view.showAll ? t('admin.photos.show_visible_only') : t('admin.photos.show_all')}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => dispatch({ type: 'toggleSelectMode' })}>
              {view.selectMode ? t('admin.photos.exit_select') : t('admin.photos.select')}
            </button>
            {perms.can_moderate_photos && (
              <button type="button" className="btn btn-outline" disabled={actions.regeneratingAll} onClick={() => void actions.regenerateAll()}>
                <RefreshCw size={18} className={actions.regeneratingAll ? 'spin' : undefined} aria-hidden="true" />
                {actions.regeneratingAll ? t('admin.photos.regenerating') : t('admin.photos.regenerate_all')}
              </button>
            )}
            <button type="button" className={`btn ${flagged ? '' : 'btn-outline'}`} aria-pressed={flagged} onClick={() => setFlagged(!flagged)}>
              {t('admin.photos.only_flagged')}
            </button>
            <ExportButtons selectedIds={selectedIds} />
            <UploaderFilter value={view.uploader} refresh={list} onChange={(uploader) => dispatch({ type: 'uploader', uploader })} />
          </>
        ) : (
          <>
            <button type="button" className="btn btn-outline" onClick={() => dispatch({ type: 'toggleSelectMode' })}>
              {view.selectMode ? t('admin.photos.cancel_selection') : t('admin.photos.select_multiple')}
            </button>
            {view.selectMode && view.selected.size > 0 && (
              <button type="button" className="btn" onClick={() => void actions.approveMany(selectedIds)}>
                {t('admin.photos.approve_n', { count: view.selected.size })}
              </button>
            )}
            <span className="muted queue-keys-hint">{t('admin.queue.keys_hint')}</span>
            {view.skipped.size > 0 && (
              <button type="button" className="btn btn-outline" onClick={() => dispatch({ type: 'showSkipped' })}>
                {t('admin.photos.show_skipped', { count: view.skipped.size })}
              </button>
            )}
          </>
        )}
      </div>

      {view.selectMode && (
        <div className="selection-bar" role="toolbar" aria-label={t('admin.photos.selection')}>
          <button type="button" className="btn btn-sm btn-outline" onClick={() => dispatch({ type: 'selectAll', ids: shown.map((p) => p.id) })}>
            {t('admin.photos.select_all', { count: shown.length })}
          </button>
          <button type="button" className="btn btn-sm btn-outline" onClick={() => dispatch({ type: 'clearSelection' })}>
            {t('admin.photos.clear_selection')}
          </button>
          <span className="muted">{t('admin.photos.selected', { count: view.selected.size })}</span>
          {!queue && view.selected.size > 0 && (
            <>
              <button type="button" className="btn btn-sm" onClick={() => void actions.bulkVisibility(selectedIds, 'show')}>
                {t('admin.photos.show')}
              </button>
              <button type="button" className="btn btn-sm btn-outline" onClick={() => void actions.bulkVisibility(selectedIds, 'hide')}>
                {t('admin.photos.hide')}
              </button>
              {perms.can_delete_photos && (
                <button type="button" className="btn btn-sm btn-danger" onClick={() => void actions.bulkDelete(selectedIds)}>
                  {t('admin.photos.delete')}
                </button>
              )}
            </>
          )}
        </div>
      )}

      {!list ? (
        <div className="photo-grid" role="status" aria-busy="true" aria-label={t('admin.photos.loading')}>
          {Array.from({ length: 8 }, (_, i) => (
            <div key={i} className="skeleton" style={{ aspectRatio: '1', minHeight: '12rem' }} />
          ))}
        </div>
      ) : shown.length === 0 ? (
        <div className="card empty-state">
          <p>{queue ? t('admin.photos.queue_empty') : view.showAll ? t('admin.photos.none') : t('admin.photos.none_visible')}</p>
        </div>
      ) : queue ? (
        <div className="approval-grid">
          {stacks.map(({ lead: p, others }) => (
            <ApprovalCard
              key={p.id}
              photo={p}
              others={others}
              focused={keys.focusedId === p.id}
              confirming={keys.confirming === p.id}
              onKeepBest={(id) => void actions.keepBest(id)}
              onPick={(id) => {
                setFront(new Set(front).add(id));
                keys.setFocusId(id);
              }}
              canReject={perms.can_delete_photos}
              selectMode={view.selectMode}
              selected={view.selected.has(p.id)}
              busy={actions.busy.has(p.id)}
              onSelect={(id) => dispatch({ type: 'toggle', id })}
              onApprove={(id) => void actions.approve(id)}
              onSkip={() => [p, ...others].forEach((o) => dispatch({ type: 'skip', id: o.id }))}
              onReject={(id) => void actions.reject(id)}
            />
          ))}
        </div>
      ) : (
        <div className="photo-grid">
          {shown.map((p) => (
            <PhotoCard
              key={p.id}
              photo={p}
              perms={perms}
              selectMode={view.selectMode}
              selected={view.selected.has(p.id)}
              busy={actions.busy.has(p.id)}
              onSelect={(id) => dispatch({ type: 'toggle', id })}
              onAction={(photo, a) => void actions.cardAction(photo, a)}
            />
          ))}
        </div>
      )}

      {keys.help && <QueueKeysHelp onClose={keys.closeHelp} />}

      {pg && pg.pages > 1 && (
        <nav className="pager" aria-label={t('admin.photos.pages')}>
          <button type="button" className="btn btn-outline" disabled={!pg.has_prev} onClick={() => dispatch({ type: 'page', page: view.page - 1 })}>
            {t('admin.photos.previous')}
          </button>
          <span>{t('admin.photos.page', { page: pg.page, pages: pg.pages })}</span>
          <button type="button" className="btn btn-outline" disabled={!pg.has_next} onClick={() => dispatch({ type: 'page', page: view.page + 1 })}>
            {t('admin.photos.next')}
          </button>
        </nav>
      )}
    </div>
  );
}
