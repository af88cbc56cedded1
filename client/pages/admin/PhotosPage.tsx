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

/** /admin/photos: All Photos and, for moderators, the Approval Queue (SPEC §2, §4). */
export function PhotosPage() {
  useSignals();
  const perms = permissionsOf(me.value);
  const [view, dispatch] = useReducer(viewReducer, undefined, initialView);
  // The last answer, with the view it was asked for: another mode's list is never shown as this one's.
  const [loaded, setLoaded] = useState<{ mode: string; list: AdminPhotoList } | null>(null);
  const [error, setError] = useState(false);
  const [nonce, setNonce] = useState(0);
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
  }, [view.page, view.mode, view.showAll, view.uploader]);

  useEffect(() => {
    void load();
  }, [load, nonce]);

  const actions = usePhotoActions(load);
  const photos = list?.photos ?? [];
  const shown = queue ? queuePhotos(photos, view.skipped) : photos;
  const selectedIds = [...view.selected];
  const pg = list?.pagination;

  if (error)
    return (
      <ErrorCard
        message="Failed to load photos"
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
          {queue ? 'Photo Approval Queue' : 'Photo Management'}{' '}
          {pg && <span className="photos-count">{queue ? `(${pg.total} pending approval)` : `(${pg.total} total)`}</span>}
          {!queue && hidden > 0 && (
            <span className="badge badge-danger photos-hidden-badge" title="Hidden photos on this page" role="img" aria-label={`${hidden} hidden on this page`}>
              {hidden}
            </span>
          )}
        </h1>
        {perms.can_moderate_photos && (
          <div className="mode-switch" role="group" aria-label="Mode">
            <button type="button" className={`btn ${queue ? 'btn-outline' : ''}`} aria-pressed={!queue} onClick={() => dispatch({ type: 'mode', mode: 'all' })}>
              All Photos
            </button>
            <button type="button" className={`btn ${queue ? '' : 'btn-outline'}`} aria-pressed={queue} onClick={() => dispatch({ type: 'mode', mode: 'queue' })}>
              Approval Queue
            </button>
          </div>
        )}
      </div>

      <div className="photos-controls">
        {!queue ? (
          <>
            <button type="button" className="btn btn-outline" onClick={() => dispatch({ type: 'toggleShowAll' })}>
              {view.showAll ? 'Show Visible Only' : 'Show All Photos'}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => dispatch({ type: 'toggleSelectMode' })}>
              {view.selectMode ? 'Exit Select Mode' : 'Select Photos'}
            </button>
            {perms.can_moderate_photos && (
              <button type="button" className="btn btn-outline" disabled={actions.regeneratingAll} onClick={() => void actions.regenerateAll()}>
                <RefreshCw size={18} className={actions.regeneratingAll ? 'spin' : undefined} aria-hidden="true" />
                {actions.regeneratingAll ? 'Regenerating...' : 'Regenerate All Thumbnails'}
              </button>
            )}
            <ExportButtons selectedIds={selectedIds} />
            <UploaderFilter value={view.uploader} refresh={list} onChange={(uploader) => dispatch({ type: 'uploader', uploader })} />
          </>
        ) : (
          <>
            <button type="button" className="btn btn-outline" onClick={() => dispatch({ type: 'toggleSelectMode' })}>
              {view.selectMode ? 'Cancel Selection' : 'Select Multiple'}
            </button>
            {view.selectMode && view.selected.size > 0 && (
              <button type="button" className="btn" onClick={() => void actions.approveMany(selectedIds)}>
                Approve {view.selected.size}
              </button>
            )}
            {view.skipped.size > 0 && (
              <button type="button" className="btn btn-outline" onClick={() => dispatch({ type: 'showSkipped' })}>
                Show {view.skipped.size} Skipped
              </button>
            )}
          </>
        )}
      </div>

      {view.selectMode && (
        <div className="selection-bar" role="toolbar" aria-label="Selection">
          <button type="button" className="btn btn-sm btn-outline" onClick={() => dispatch({ type: 'selectAll', ids: shown.map((p) => p.id) })}>
            Select All ({shown.length})
          </button>
          <button type="button" className="btn btn-sm btn-outline" onClick={() => dispatch({ type: 'clearSelection' })}>
            Clear Selection
          </button>
          <span className="muted">{view.selected.size} selected</span>
          {!queue && view.selected.size > 0 && (
            <>
              <button type="button" className="btn btn-sm" onClick={() => void actions.bulkVisibility(selectedIds, 'show')}>
                Show
              </button>
              <button type="button" className="btn btn-sm btn-outline" onClick={() => void actions.bulkVisibility(selectedIds, 'hide')}>
                Hide
              </button>
              {perms.can_delete_photos && (
                <button type="button" className="btn btn-sm btn-danger" onClick={() => void actions.bulkDelete(selectedIds)}>
                  Delete
                </button>
              )}
            </>
          )}
        </div>
      )}

      {!list ? (
        <div className="photo-grid" role="status" aria-busy="true" aria-label="Loading photos">
          {Array.from({ length: 8 }, (_, i) => (
            <div key={i} className="skeleton" style={{ aspectRatio: '1', minHeight: '12rem' }} />
          ))}
        </div>
      ) : shown.length === 0 ? (
        <div className="card empty-state">
          <p>{queue ? 'All caught up! No photos pending approval.' : view.showAll ? 'No photos found' : 'No visible photos found'}</p>
        </div>
      ) : queue ? (
        <div className="approval-grid">
          {shown.map((p) => (
            <ApprovalCard
              key={p.id}
              photo={p}
              canReject={perms.can_delete_photos}
              selectMode={view.selectMode}
              selected={view.selected.has(p.id)}
              busy={actions.busy.has(p.id)}
              onSelect={(id) => dispatch({ type: 'toggle', id })}
              onApprove={(id) => void actions.approve(id)}
              onSkip={(id) => dispatch({ type: 'skip', id })}
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

      {pg && pg.pages > 1 && (
        <nav className="pager" aria-label="Pages">
          <button type="button" className="btn btn-outline" disabled={!pg.has_prev} onClick={() => dispatch({ type: 'page', page: view.page - 1 })}>
            Previous
          </button>
          <span>
            Page {pg.page} of {pg.pages}
          </span>
          <button type="button" className="btn btn-outline" disabled={!pg.has_next} onClick={() => dispatch({ type: 'page', page: view.page + 1 })}>
            Next
          </button>
        </nav>
      )}
    </div>
  );
}
