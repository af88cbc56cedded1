import english from 'locales:en/guestbook';
import { registerPart } from '../../i18n';

/**
 * The guestbook page's texts are a catalogue part of their own (keys `guestbook.*`), shipped
 * with its chunk: not every guest opens it, so the guest pages do not carry them.
 */
registerPart('guestbook', english);

export { t } from '../../i18n';
