import type { AdminPhoto, QualityFlag } from '../../../common/api-types';
import { t } from './t';

const LABEL: Record<QualityFlag, () => string> = {
  blurry: () => t('admin.photos.flag.blurry'),
  dark: () => t('admin.photos.flag.dark'),
  overexposed: () => t('admin.photos.flag.overexposed'),
};

/** What processing found wrong with the picture, as small warnings on its card; nothing when clean. */
export function PhotoFlags({ photo }: { photo: AdminPhoto }) {
  if (!photo.quality_flags.length) return null;
  return (
    <ul className="photo-flags" aria-label={t('admin.photos.flags_label')} data-testid="photo-flags">
      {photo.quality_flags.map((f) => (
        <li key={f} className="badge badge-warning" data-flag={f}>
          {LABEL[f]()}
        </li>
      ))}
    </ul>
  );
}
