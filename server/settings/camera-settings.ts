import type { WeddingSettings } from '../../common/api-types.js';
import { FRAME_IDS } from '../../common/frames.js';
import { msg, type Message } from '../../common/languages.js';

/** The settings keys of the camera: the disposable-camera game's shots per guest and the frame. */
export const CAMERA_KEYS = ['shot_limit', 'frame'] as const;

export const MAX_SHOT_LIMIT = 100;

/** The camera keys present in `b`, checked; problems are added to `problems`. */
export function parseCameraSettings(b: Record<string, unknown>, problems: Message[]): Partial<Pick<WeddingSettings, 'shot_limit' | 'frame'>> {
  const out: Partial<Pick<WeddingSettings, 'shot_limit' | 'frame'>> = {};
  if (b.shot_limit !== undefined) {
    const v = b.shot_limit;
    if (v === null) out.shot_limit = null;
    else if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_SHOT_LIMIT) out.shot_limit = v;
    else problems.push(msg('errors.settings.shot_limit', { max: MAX_SHOT_LIMIT }));
  }
  if (b.frame !== undefined) {
    if (b.frame === null) out.frame = null;
    else if (typeof b.frame === 'string' && FRAME_IDS.includes(b.frame)) out.frame = b.frame;
    else problems.push(msg('errors.settings.frame', { frames: FRAME_IDS.join(', ') }));
  }
  return out;
}
