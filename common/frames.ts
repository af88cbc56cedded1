/**
 * The frames a photo taken in the page or the booth may carry: each drawn on a canvas in the
 * wedding's theme (its colours and fonts) with the couple's names and the date
 * (client/components/camera/frames.ts draws them).
 */
export interface Frame {
  id: string;
  /** Catalogue key of the frame's name (the settings page and the guest's choice). */
  nameKey: string;
}

export const FRAMES: readonly Frame[] = [
  { id: 'classic', nameKey: 'camera.frame.classic' },
  { id: 'polaroid', nameKey: 'camera.frame.polaroid' },
  { id: 'film', nameKey: 'camera.frame.film' },
  { id: 'garden', nameKey: 'camera.frame.garden' },
];

export const FRAME_IDS: readonly string[] = FRAMES.map((f) => f.id);
