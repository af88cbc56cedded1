import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import type { Challenge, WeddingSettings } from '../../../common/api-types';
import { CHALLENGE_DESCRIPTION_MAX, CHALLENGE_TITLE_MAX, CHALLENGES_MAX } from '../../../common/rules';
import { Card } from './Card';
import { Field, InputField } from './Field';
import { t } from './t';

/**
 * The couple's photo challenges (settings `challenges`): a title and an optional description each,
 * at most CHALLENGES_MAX. A challenge keeps its id when reworded, so its photos stay with it; a new
 * one is sent without an id and the server gives it one.
 */
export function ChallengesEditor({ value, onChange }: { value: Pick<WeddingSettings, 'challenges'>; onChange(patch: Pick<WeddingSettings, 'challenges'>): void }) {
  const list = value.challenges;
  const set = (i: number, patch: Partial<Challenge>) => onChange({ challenges: list.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  return (
    <Card className="settings-section" titleId="st-challenges-title" title={t('admin.settings.challenges')}>
      <p className="muted">{t('admin.settings.challenges_hint')}</p>
      {list.length === 0 && <p className="muted">{t('admin.settings.challenges_none')}</p>}
      {list.map((c, i) => (
        <fieldset key={c.id || `new-${i}`} className="schedule-item challenge-item">
          <legend>{t('admin.settings.challenge', { number: i + 1 })}</legend>
          <InputField id={`st-ch-${i}-title`} label={t('admin.settings.challenge_title')} type="text" required maxLength={CHALLENGE_TITLE_MAX} value={c.title} onValue={(title) => set(i, { title })} />
          <Field id={`st-ch-${i}-description`} label={t('admin.settings.challenge_description')}>
            <textarea id={`st-ch-${i}-description`} maxLength={CHALLENGE_DESCRIPTION_MAX} value={c.description} onChange={(e) => set(i, { description: e.target.value })} />
          </Field>
          <button type="button" className="btn btn-sm btn-outline" onClick={() => onChange({ challenges: list.filter((_, j) => j !== i) })}>
            <Trash2 size={16} aria-hidden="true" />
            {t('admin.settings.remove_challenge', { number: i + 1 })}
          </button>
        </fieldset>
      ))}
      {list.length < CHALLENGES_MAX ? (
        <button type="button" className="btn btn-outline" onClick={() => onChange({ challenges: [...list, { id: '', title: '', description: '' }] })}>
          <Plus size={18} aria-hidden="true" />
          {t('admin.settings.add_challenge')}
        </button>
      ) : (
        <p className="muted">{t('admin.settings.challenges_full', { max: CHALLENGES_MAX })}</p>
      )}
    </Card>
  );
}
