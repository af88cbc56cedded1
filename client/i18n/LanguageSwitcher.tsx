import { useId, useState } from 'react';
import { language, LANGUAGES, setLanguage, t } from './index';

/**
 * The language switcher: a native select (keyboard, screen readers and phones handle it well),
 * each language named in itself. Shown only when there is more than one language.
 */
export function LanguageSwitcher() {
  const id = useId();
  // The choice shows at once while its texts are fetched; arrow keys may pass through several.
  const [chosen, setChosen] = useState<string | null>(null);
  if (LANGUAGES.length < 2) return null;
  const choose = (lang: string) => {
    setChosen(lang);
    setLanguage(lang)
      .catch((err) => console.error('Could not load the language', lang, err))
      .finally(() => setChosen((c) => (c === lang ? null : c)));
  };
  return (
    <div className="language-switcher">
      <label htmlFor={id}>{t('app.language')}</label>
      <select id={id} value={chosen ?? language.value} aria-busy={chosen !== null || undefined} onChange={(e) => choose(e.currentTarget.value)}>
        {LANGUAGES.map(([code, name, dir]) => (
          <option key={code} value={code} lang={code} dir={dir}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}
