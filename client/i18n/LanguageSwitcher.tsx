import { useId, useState } from 'react';
import { language, LANGUAGES, setLanguage, t } from './index';

/**
 * The language switcher: a native select (keyboard, screen readers and phones handle it well),
 * each language named in itself. Shown only when there is more than one language.
 */
export function LanguageSwitcher({ className = 'language-switcher' }: { className?: string }) {
  const id = useId();
  const [busy, setBusy] = useState(false);
  if (LANGUAGES.length < 2) return null;
  const choose = async (lang: string) => {
    setBusy(true);
    try {
      await setLanguage(lang);
    } catch (err) {
      console.error('Could not load the language', lang, err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={className}>
      <label htmlFor={id}>{t('app.language')}</label>
      <select id={id} value={language.value} disabled={busy} aria-busy={busy || undefined} onChange={(e) => void choose(e.currentTarget.value)}>
        {LANGUAGES.map(([code, name, dir]) => (
          <option key={code} value={code} lang={code} dir={dir}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
