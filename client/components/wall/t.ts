import english from 'locales:en/wall';
import { registerPart } from '../../i18n';

/**
 * The reception wall's texts are a catalogue part of their own (keys `wall.*`), shipped with its
 * chunk rather than with the guest pages: every wall file takes `t` from here.
 */
registerPart('wall', english);

export { t } from '../../i18n';
