import { useEffect, useId, useState } from 'react';
import type { AdminPhoto, AdminSettingsResponse, ThemeInfo, WeddingSettings } from '../../../common/api-types';
import { themeById, usableAccent } from '../../../common/themes';
import { adminApi, errorText } from '../../api/admin';
import { handleUnauthorized } from '../../state/admin';
import { toast } from '../ui/toast';
import { Card } from './Card';
import { CheckboxRow, Field } from './Field';
import { t } from './t';
import { themedStyle, useFontSheet } from './themed';

type Look = Pick<WeddingSettings, 'theme' | 'accent_color' | 'cover_photo_id' | 'cover_image' | 'couple_names'>;

/** A small home page in the chosen look: it changes as the couple picks, before anything is saved. */
function Preview({ look, fontsCss }: { look: Look; fontsCss: string | null }) {
  useFontSheet(fontsCss);
  return (
    <div className="theme-preview" style={themedStyle(look.theme, look.accent_color)} data-testid="theme-preview" data-theme={look.theme} aria-label={t('admin.settings.preview')} role="img">
      <p className="eyebrow">{t('admin.settings.preview_eyebrow')}</p>
      <p className="theme-preview-names" dir="auto">
        {look.couple_names[0]} &amp; {look.couple_names[1]}
      </p>
      <span className="btn theme-preview-button">{t('admin.settings.preview_button')}</span>
      <div className="card theme-preview-card">
        <p className="theme-preview-title">{t('admin.settings.preview_card')}</p>
        <p className="muted">{t('admin.settings.preview_text')}</p>
      </div>
    </div>
  );
}

/** Approved photos to pick the cover from. */
function CoverPicker({ onPick }: { onPick: (id: string) => void }) {
  const [photos, setPhotos] = useState<AdminPhoto[] | null>(null);
  useEffect(() => {
    adminApi
      .photos({ page: 1, perPage: 24, showAll: false, pending: false })
      .then((r) => setPhotos(r.photos.filter((p) => p.is_visible && p.content_type.startsWith('image/') && p.thumbnail_url)))
      .catch((err) => {
        if (!handleUnauthorized(err)) setPhotos([]);
      });
  }, []);
  if (!photos) return <div className="skeleton cover-picker-loading" aria-busy="true" />;
  if (!photos.length) return <p className="muted">{t('admin.settings.cover_no_photos')}</p>;
  return (
    <ul className="cover-picker" data-testid="cover-picker">
      {photos.map((p) => (
        <li key={p.id}>
          <button type="button" className="cover-pick" onClick={() => onPick(p.id)} aria-label={t('admin.settings.cover_pick', { name: p.original_filename })}>
            <img src={p.thumbnail_url!} alt="" loading="lazy" />
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The settings page's look: theme, accent colour (adjusted when it would not read, and saying to
 * what), a live preview, and the cover photo (an approved photo, or an uploaded image).
 */
export function LookSettings({ value, themes, coverUrl, onChange, onSaved }: { value: WeddingSettings; themes: ThemeInfo[]; coverUrl: string | null; onChange: (patch: Partial<WeddingSettings>) => void; onSaved: (r: AdminSettingsResponse) => void }) {
  const id = useId();
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const theme = themeById(value.theme);
  const used = value.accent_color ? usableAccent(theme, value.accent_color) : null;
  const chosen = themes.find((x) => x.id === theme.id);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      onSaved(await adminApi.uploadCover(file));
      toast({ title: t('admin.settings.cover_saved'), variant: 'success' });
    } catch (err) {
      if (!handleUnauthorized(err)) toast({ title: t('admin.settings.cover_failed'), description: errorText(err, t('admin.settings.save_failed')), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (value.cover_image) {
      try {
        onSaved(await adminApi.removeCover());
      } catch (err) {
        if (!handleUnauthorized(err)) toast({ title: t('admin.settings.cover_failed'), description: errorText(err, t('admin.settings.save_failed')), variant: 'destructive' });
        return;
      }
    }
    onChange({ cover_photo_id: null, cover_image: null });
  };

  return (
    <Card className="settings-section look-settings" titleId={`${id}-title`} title={t('admin.settings.look')}>
      <div className="look-grid">
        <div>
          <Field id={`${id}-theme`} label={t('admin.settings.theme')}>
            <select id={`${id}-theme`} value={theme.id} onChange={(e) => onChange({ theme: e.currentTarget.value })}>
              {themes.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </select>
          </Field>
          <CheckboxRow label={t('admin.settings.accent_own')} checked={value.accent_color !== null} onChange={(e) => onChange({ accent_color: e.currentTarget.checked ? theme.palette.accentStrong : null })} />
          {value.accent_color !== null && (
            <Field id={`${id}-accent`} label={t('admin.settings.accent')}>
              <input id={`${id}-accent`} type="color" className="accent-input" value={value.accent_color} onChange={(e) => onChange({ accent_color: e.currentTarget.value })} />
              {used && used !== value.accent_color && (
                <p className="muted accent-adjusted" role="status" data-testid="accent-adjusted">
                  <span className="accent-swatch" style={{ background: used }} aria-hidden="true" />
                  {t('admin.settings.accent_adjusted', { chosen: value.accent_color, used })}
                </p>
              )}
            </Field>
          )}
        </div>
        <Preview look={value} fontsCss={chosen?.fonts_css ?? null} />
      </div>

      <h3>{t('admin.settings.cover')}</h3>
      <p className="muted">{t('admin.settings.cover_hint')}</p>
      {coverUrl ? <img className="cover-current" src={coverUrl} alt={t('admin.settings.cover_current')} data-testid="cover-current" /> : <p>{t('admin.settings.cover_none')}</p>}
      <div className="cover-actions">
        <label className="btn btn-outline" aria-disabled={busy}>
          {t('admin.settings.cover_upload')}
          <input type="file" accept="image/jpeg,image/png,image/webp,image/avif,image/gif" className="sr-only" disabled={busy} data-testid="cover-file" onChange={(e) => void upload(e.currentTarget.files?.[0])} />
        </label>
        <button type="button" className="btn btn-outline" onClick={() => setPicking(!picking)} aria-expanded={picking}>
          {t('admin.settings.cover_choose')}
        </button>
        {(value.cover_photo_id || value.cover_image) && (
          <button type="button" className="btn btn-ghost" onClick={() => void remove()}>
            {t('admin.settings.cover_remove')}
          </button>
        )}
      </div>
      {picking && (
        <CoverPicker
          onPick={(photo) => {
            onChange({ cover_photo_id: photo, cover_image: null });
            setPicking(false);
          }}
        />
      )}
      {value.cover_photo_id && !value.cover_image && <p className="muted">{t('admin.settings.cover_photo_chosen')}</p>}
    </Card>
  );
}
