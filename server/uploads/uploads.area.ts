import type { Area, Shared } from '../area.js';

export function createUploadsArea(_shared: Shared): Area {
  return {};
}
