import english from 'locales:en/challenges';
import { registerPart } from '../../i18n';

/**
 * The photo challenges on the upload page have a catalogue part of their own (keys
 * `challenges.*`), shipped with their lazily loaded chunk: without challenges set, guests never
 * download it.
 */
registerPart('challenges', english);

export { t } from '../../i18n';
