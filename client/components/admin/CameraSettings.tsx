import type { FrameInfo, WeddingSettings } from '../../../common/api-types';
import { Card } from './Card';
import { Field } from './Field';
import { t } from './t';

type Camera = Pick<WeddingSettings, 'shot_limit' | 'frame'>;

/** The settings page's camera: the shots each guest may take (the disposable-camera game) and the frame guests may add. */
export function CameraSettings({ value, frames, onChange }: { value: Camera; frames: FrameInfo[]; onChange: (patch: Partial<Camera>) => void }) {
  return (
    <Card className="settings-section" title={t('admin.settings.camera')}>
      <Field id="st-shot-limit" label={t('admin.settings.shot_limit')} hint={t('admin.settings.shot_limit_hint')} hintId="st-shot-limit-hint">
        <input
          id="st-shot-limit"
          type="number"
          min={1}
          max={100}
          inputMode="numeric"
          aria-describedby="st-shot-limit-hint"
          value={value.shot_limit ?? ''}
          onChange={(e) => onChange({ shot_limit: e.target.value === '' ? null : Math.round(Number(e.target.value)) })}
        />
      </Field>
      <Field id="st-frame" label={t('admin.settings.frame')}>
        <select id="st-frame" value={value.frame ?? ''} onChange={(e) => onChange({ frame: e.target.value || null })}>
          <option value="">{t('admin.settings.frame_none')}</option>
          {frames.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
            </option>
          ))}
        </select>
      </Field>
    </Card>
  );
}
