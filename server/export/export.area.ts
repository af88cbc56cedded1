import type { Area, Shared } from '../area.js';

export function createExportArea(_shared: Shared): Area {
  return {};
}
