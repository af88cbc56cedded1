import type { Area, Shared } from '../area.js';

export function createPhotosArea(_shared: Shared): Area {
  return {};
}
