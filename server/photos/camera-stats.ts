import { cameraName } from './photos.mappers.js';
import type { CameraCount } from './photos.repo.js';

/**
 * Cameras by display name, most used first; rows differing only in how the make is spelled merge.
 * Used by the public stats and the admin dashboard.
 */
export function camerasByName(rows: readonly CameraCount[]): { name: string; count: number }[] {
  const byName = new Map<string, number>();
  for (const r of rows) {
    const name = cameraName(r.camera_make, r.camera_model);
    if (name) byName.set(name, (byName.get(name) ?? 0) + Number(r.n));
  }
  return [...byName].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
}
