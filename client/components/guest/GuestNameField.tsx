import { useSignals } from '@preact/signals-react/runtime';
import { t } from '../../i18n';
import { guestName, NAME_MAX, setGuestName } from '../../state/guest';

/** "Your name (optional)": asked once, remembered on this device, sent with every file. */
export function GuestNameField() {
  useSignals();
  return (
    <div className="card guest-name-field">
      <label htmlFor="uploader-name">{t('upload.name.label')}</label>
      <input
        id="uploader-name"
        type="text"
        autoComplete="name"
        maxLength={NAME_MAX}
        dir="auto"
        placeholder={t('upload.name.placeholder')}
        aria-describedby="uploader-name-hint"
        value={guestName.value}
        onChange={(e) => setGuestName(e.currentTarget.value)}
      />
      <p id="uploader-name-hint" className="muted guest-name-hint">
        {t('upload.name.hint')}
      </p>
    </div>
  );
}
