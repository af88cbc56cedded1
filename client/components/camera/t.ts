import english from 'locales:en/camera';
import { registerPart } from '../../i18n';

/**
 * The camera, the frames and the photo booth have a catalogue part of their own (keys
 * `camera.*`), shipped with their lazily loaded chunks: a guest who never opens the camera never
 * downloads it.
 */
registerPart('camera', english);

export { t } from '../../i18n';
