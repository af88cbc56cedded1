import { useId, useState } from 'react';
import type { ScheduleText, TranslatedTexts, WeddingSettings } from '../../../common/api-types';
import { LANGUAGES } from '../../i18n';
import { SCHEDULE_FIELDS } from './schedule-fields';
import { t } from './t';

type Value = Pick<WeddingSettings, 'default_language' | 'translations' | 'couple_names' | 'welcome_message' | 'photo_sharing_message' | 'thank_you_message' | 'schedule'>;

const LONG = [
  ['welcome_text', 'welcome_message', 'admin.settings.welcome'],
  ['photo_sharing_text', 'photo_sharing_message', 'admin.settings.sharing'],
  ['thank_you_text', 'thank_you_message', 'admin.settings.thanks'],
] as const;

/**
 * "Languages": which language the texts above are written in, and the same texts in other
 * languages, one language at a time. An empty field shows the text above to that language's
 * guests, so the couple writes only what they want to.
 */
export function TranslationsEditor({ value, onChange }: { value: Value; onChange(patch: Partial<Value>): void }) {
  const id = useId();
  const others = LANGUAGES.filter(([code]) => code !== value.default_language);
  const [picked, setPicked] = useState(others[0]?.[0] ?? '');
  const lang = others.some(([c]) => c === picked) ? picked : others[0]?.[0];
  const texts: TranslatedTexts = (lang && value.translations?.[lang]) || {};
  const langName = LANGUAGES.find(([c]) => c === lang)?.[1] ?? '';
  const set = (patch: Partial<TranslatedTexts>) => lang && onChange({ translations: { ...value.translations, [lang]: { ...texts, ...patch } } });
  const setItem = (i: number, patch: ScheduleText) => {
    const schedule = value.schedule.map((_, j) => ({ ...texts.schedule?.[j] }));
    schedule[i] = { ...schedule[i], ...patch };
    set({ schedule });
  };
  const field = (key: string, label: string, v: string | undefined, shown: string, onText: (s: string) => void, long = false) => {
    const props = { id: `${id}-${key}`, lang, value: v ?? '', placeholder: shown, dir: 'auto', onChange: (e: { currentTarget: { value: string } }) => onText(e.currentTarget.value) };
    return (
      <div key={key} className={`field${long ? ' field-wide' : ''}`}>
        <label htmlFor={props.id}>
          {label}
          {/* A screen reader hears which language the field is for, not the same name twice. */}
          <span className="sr-only" lang={lang}>
            {` (${langName})`}
          </span>
        </label>
        {long ? <textarea {...props} /> : <input type="text" {...props} />}
      </div>
    );
  };
  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 className="card-title" id={`${id}-title`}>
        {t('admin.settings.languages')}
      </h2>
      <div className="field">
        <label htmlFor={`${id}-default`}>{t('admin.settings.default_language')}</label>
        <select id={`${id}-default`} value={value.default_language} onChange={(e) => onChange({ default_language: e.currentTarget.value })}>
          {LANGUAGES.map(([code, name]) => (
            <option key={code} value={code} lang={code}>
              {name}
            </option>
          ))}
        </select>
        <p className="muted settings-hint">{t('admin.settings.default_language_hint')}</p>
      </div>
      {lang && (
        <>
          <div className="field">
            <label htmlFor={`${id}-lang`}>{t('admin.settings.translate_into')}</label>
            <select id={`${id}-lang`} value={lang} onChange={(e) => setPicked(e.currentTarget.value)}>
              {others.map(([code, name]) => (
                <option key={code} value={code} lang={code}>
                  {name}
                </option>
              ))}
            </select>
            <p className="muted settings-hint">{t('admin.settings.translate_hint')}</p>
          </div>
          <div className="settings-grid" key={lang}>
            {[0, 1].map((i) =>
              field(`name-${i}`, t(i ? 'admin.settings.second_name' : 'admin.settings.first_name'), texts.couple_names?.[i], value.couple_names[i], (s) => {
                const names: [string, string] = [texts.couple_names?.[0] ?? '', texts.couple_names?.[1] ?? ''];
                names[i] = s;
                set({ couple_names: names });
              }),
            )}
            {LONG.map(([key, base, label]) => field(key, t(label), texts[key], value[base], (s) => set({ [key]: s }), true))}
          </div>
          {value.schedule.map((item, i) => (
            <fieldset key={`${lang}-${i}`} className="schedule-item">
              <legend>{t('admin.settings.event', { number: i + 1 })}</legend>
              <div className="settings-grid">
                {SCHEDULE_FIELDS.map((f) => field(`${i}-${f.key}`, t(f.label), texts.schedule?.[i]?.[f.key], item[f.key], (s) => setItem(i, { [f.key]: s }), f.long))}
              </div>
            </fieldset>
          ))}
        </>
      )}
    </section>
  );
}
