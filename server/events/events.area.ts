import type { Area, Shared } from '../area.js';

export function createEventsArea(_shared: Shared): Area {
  return {};
}
