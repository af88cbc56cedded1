import { useEffect, useState } from 'react';
import type { UploaderCount } from '../../../common/api-types';
import { adminApi } from '../../api/admin';
import { t } from './t';

/** The photos page's filter by guest: every name guests gave, with how many photos carry it. */
export function UploaderFilter({ value, refresh, onChange }: { value: string | null; refresh: unknown; onChange: (name: string | null) => void }) {
  const [names, setNames] = useState<UploaderCount[]>([]);

  useEffect(() => {
    let live = true;
    adminApi.uploaders().then(
      (r) => live && setNames(r.uploaders),
      (err) => console.error('Could not load the guest names', err),
    );
    return () => {
      live = false;
    };
  }, [refresh]);

  // A name chosen before its last photo went is still offered, so the filter can be seen and cleared.
  const options = value && !names.some((n) => n.name === value) ? [...names, { name: value, count: 0 }] : names;
  if (!options.length) return null;
  return (
    <div className="uploader-filter">
      <label htmlFor="uploader-filter">{t('admin.filter.guest')}</label>
      <select id="uploader-filter" value={value ?? ''} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">{t('admin.filter.all_guests')}</option>
        {options.map((n) => (
          <option key={n.name} value={n.name}>
            {t('admin.filter.option', { name: n.name, count: n.count })}
          </option>
        ))}
      </select>
    </div>
  );
}
