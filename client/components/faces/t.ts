import english from 'locales:en/faces';
import { registerPart } from '../../i18n';

/**
 * "Find photos of me" has a catalogue part of its own (keys `faces.*`), shipped with its lazily
 * loaded chunk: guests who never open it never download its texts.
 */
registerPart('faces', english);

export { t } from '../../i18n';
