import english from 'locales:en/admin';
import { registerPart } from '../../i18n';

/**
 * The admin panel's texts are a catalogue part of their own (keys `admin.*`), shipped with its
 * chunk: every admin file takes `t` from here, which makes sure the part's English is there.
 */
registerPart('admin', english);

export { t, tIn } from '../../i18n';
export { formatDateTime, formatNumber } from '../../i18n/format';
