import Download from 'lucide-react/icons/download';
import { useId, useRef, type SyntheticEvent } from 'react';
import { toast } from '../ui/toast';
import { t } from './t';

export const EXPORT_URL = '/admin/api/export.zip';

/**
 * "Download all / visible / selected" as ZIP. The browser itself streams the download
 * (fetch would hold the whole archive in memory): plain links for all and visible, a
 * hidden form POST for a selection. Both aim at a hidden frame, so an error answer
 * (signed out, bad selection) lands there and is shown as a toast instead of replacing
 * the admin page; a successful answer is a download and leaves the frame alone.
 */
export function ExportButtons({ selectedIds = [], compact = false }: { selectedIds?: string[]; compact?: boolean }) {
  const frame = `export-frame-${useId().replace(/[^A-Za-z0-9]/g, '')}`;
  const form = useRef<HTMLFormElement>(null);
  const cls = `btn btn-outline${compact ? ' btn-sm' : ''}`;
  const icon = compact ? 16 : 18;

  const starting = () => toast({ title: t('admin.export.starting'), description: t('admin.export.starting_text') });

  const onFrameLoad = (e: SyntheticEvent<HTMLIFrameElement>) => {
    let text = '';
    try {
      const doc = e.currentTarget.contentDocument;
      if (!doc || doc.location.href === 'about:blank') return;
      text = doc.body?.textContent ?? '';
    } catch {
      /* not readable: nothing to report */
    }
    if (!text.trim()) return;
    let error = t('admin.export.failed');
    try {
      const body = JSON.parse(text) as { error?: unknown };
      if (typeof body.error === 'string') error = body.error;
    } catch {
      /* not JSON: keep the generic sentence */
    }
    toast({ title: error, variant: 'destructive' });
  };

  return (
    <>
      <a className={cls} href={`${EXPORT_URL}?scope=all`} target={frame} onClick={starting} data-testid="export-all">
        <Download size={icon} aria-hidden="true" />
        {t('admin.export.all')}
      </a>
      <a className={cls} href={`${EXPORT_URL}?scope=visible`} target={frame} onClick={starting} data-testid="export-visible">
        <Download size={icon} aria-hidden="true" />
        {t('admin.export.visible')}
      </a>
      {selectedIds.length > 0 && (
        <button
          type="button"
          className={`btn${compact ? ' btn-sm' : ''}`}
          data-testid="export-selected"
          onClick={() => {
            starting();
            form.current?.submit();
          }}
        >
          <Download size={icon} aria-hidden="true" />
          {t('admin.export.selected', { count: selectedIds.length })}
        </button>
      )}
      <form ref={form} method="post" action={EXPORT_URL} target={frame} hidden>
        <input type="hidden" name="photo_ids" value={JSON.stringify(selectedIds)} />
      </form>
      <iframe name={frame} title={t('admin.photos.download')} hidden onLoad={onFrameLoad} />
    </>
  );
}
