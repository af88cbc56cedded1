import '../../shared-chunk';
import { useSignals } from '@preact/signals-react/runtime';
import Trophy from 'lucide-react/icons/trophy';
import { useEffect, useState } from 'react';
import type { ChallengeCount } from '../../../common/api-types';
import { pickChallenge, pickedChallenge } from '../../state/guest';
import { t } from './t';

/** Challenges shown before "Show all": enough to see what they are without pushing the upload box off a phone's screen. */
const FIRST_SHOWN = 3;

/**
 * The couple's photo challenges on the upload page, each with how many gallery photos answer it:
 * a guest picks one (or none) and the files they add next count for it. A plain radio group, so
 * arrow keys move between the choices and a screen reader reads title, description and count.
 */
export function ChallengePicker({ challenges }: { challenges: readonly ChallengeCount[] }) {
  useSignals();
  const picked = pickedChallenge.value;
  const [all, setAll] = useState(false);
  const chosen = challenges.find((c) => c.id === picked) ?? null;

  // A challenge the couple removed since it was picked is no longer offered.
  useEffect(() => {
    if (picked && challenges.length && !challenges.some((c) => c.id === picked)) pickChallenge(null);
  }, [picked, challenges]);

  if (!challenges.length) return null;
  const collapsed = !all && challenges.length > FIRST_SHOWN + 1;
  const shown = collapsed ? challenges.filter((c, i) => i < FIRST_SHOWN || c.id === picked) : challenges;

  return (
    <section className="card challenges-card" aria-labelledby="challenges-title">
      <h2 id="challenges-title" className="challenges-title">
        <Trophy aria-hidden="true" size={20} /> {t('challenges.title')}
      </h2>
      <p className="muted">{t('challenges.lead')}</p>
      <fieldset className="challenge-list">
        <legend className="sr-only">{t('challenges.pick')}</legend>
        <label className={`challenge-option${picked === null ? ' challenge-picked' : ''}`}>
          <input type="radio" name="challenge" value="" checked={picked === null} onChange={() => pickChallenge(null)} />
          <span className="challenge-text">
            <span className="challenge-name">{t('challenges.none')}</span>
          </span>
        </label>
        {shown.map((c) => (
          <label key={c.id} className={`challenge-option${picked === c.id ? ' challenge-picked' : ''}`}>
            <input type="radio" name="challenge" value={c.id} checked={picked === c.id} onChange={() => pickChallenge(c.id)} />
            <span className="challenge-text">
              <span className="challenge-name" dir="auto">
                {c.title}
              </span>
              {c.description && (
                <span className="challenge-description muted" dir="auto">
                  {c.description}
                </span>
              )}
            </span>
            <span className="challenge-count">{t('challenges.count', { count: c.count })}</span>
          </label>
        ))}
      </fieldset>
      {collapsed && (
        <button type="button" className="btn btn-sm btn-outline" onClick={() => setAll(true)}>
          {t('challenges.show_all', { count: challenges.length })}
        </button>
      )}
      <p className="challenge-status" role="status">
        {chosen ? t('challenges.picked', { title: chosen.title }) : ''}
      </p>
    </section>
  );
}
