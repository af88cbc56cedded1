import { useId, useState } from 'react';
import type { ScheduleText, TranslatedTexts, WeddingSettings } from '../../../common/api-types';
import { LANGUAGES } from '../../i18n';
import { Card } from './Card';
import { Field, LanguageOptions } from './Field';
import { LONG_TEXTS, SCHEDULE_FIELDS } from './schedule-fields';
import { t } from './t';

type Value = Pick<WeddingSettings, 'default_language' | 'translations' | 'couple_names' | 'welcome_message' | 'photo_sharing_message' | 'thank_you_message' | 'schedule'>;

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
      <Field
        key={key}
        id={props.id}
        className={long ? 'field-wide' : undefined}
        label={
          <>
            {label}
            {/* A screen reader hears which language the field is for, not the same name twice. */}
            <span className="sr-only" lang={lang}>
              {` (${langName})`}
            </span>
          </>
        }
      >
        {long ? <textarea {...props} /> : <input type="text" {...props} />}
      </Field>
    );
  };
  return (
    <Card className="settings-section" titleId={`${id}-title`} title={t('admin.settings.languages')}>
      <Field id={`${id}-default`} label={t('admin.settings.default_language')} hint={t('admin.settings.default_language_hint')}>
        <select id={`${id}-default`} value={value.default_language} onChange={(e) => onChange({ default_language: e.currentTarget.value })}>
          <LanguageOptions languages={LANGUAGES} />
        </select>
      </Field>
      {lang && (
        <>
          <Field id={`${id}-lang`} label={t('admin.settings.translate_into')} hint={t('admin.settings.translate_hint')}>
            <select id={`${id}-lang`} value={lang} onChange={(e) => setPicked(e.currentTarget.value)}>
              <LanguageOptions languages={others} />
            </select>
          </Field>
          <div className="settings-grid" key={lang}>
            {[0, 1].map((i) =>
              field(`name-${i}`, t(i ? 'admin.settings.second_name' : 'admin.settings.first_name'), texts.couple_names?.[i], value.couple_names[i], (s) => {
                const names: [string, string] = [texts.couple_names?.[0] ?? '', texts.couple_names?.[1] ?? ''];
                names[i] = s;
                set({ couple_names: names });
              }),
            )}
            {LONG_TEXTS.map(({ translation, key, label }) => field(translation, t(label), texts[translation], value[key], (s) => set({ [translation]: s }), true))}
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
    </Card>
  );
}
