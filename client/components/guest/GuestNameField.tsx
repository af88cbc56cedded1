import { useSignals } from '@preact/signals-react/runtime';
import { guestName, NAME_MAX, setGuestName } from '../../state/guest';

/** "Your name (optional)": asked once, remembered on this device, sent with every file. */
export function GuestNameField() {
  useSignals();
  return (
    <div className="card guest-name-field">
      <label htmlFor="uploader-name">Your name (optional)</label>
      <input
        id="uploader-name"
        type="text"
        autoComplete="name"
        maxLength={NAME_MAX}
        placeholder="So the couple knows who shared it"
        aria-describedby="uploader-name-hint"
        value={guestName.value}
        onChange={(e) => setGuestName(e.currentTarget.value)}
      />
      <p id="uploader-name-hint" className="muted guest-name-hint">
        Shown with your photos. Leave it empty to share anonymously.
      </p>
    </div>
  );
}
