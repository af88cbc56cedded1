import type { GalleryResponse, WallCommand, WallControls, WallsResponse } from '../../../common/api-types';
import { getJson, postJson, putJson } from '../../api/http';

const A = '/admin/api';

/** The couple's remote (any signed-in role): the wall's controls, commands, announcements and the open walls. */
export const wallRemote = {
  controls: () => getJson<{ success: true; wall: WallControls }>(`${A}/wall`),
  set: (patch: Partial<WallControls>) => putJson<{ success: true; wall: WallControls }>(`${A}/wall`, patch),
  command: (c: WallCommand) => postJson<{ success: true }>(`${A}/wall/command`, c),
  announce: (text: string, seconds: number) => postJson<{ success: true }>(`${A}/wall/announce`, { text, seconds }),
  walls: () => getJson<WallsResponse>(`${A}/walls`),
  /** The newest photos the wall can show (videos too), for "show this photo now". */
  recent: () => getJson<GalleryResponse>('/api/photos?view=wall&limit=24&offset=0'),
};
