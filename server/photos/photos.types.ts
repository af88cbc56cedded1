import type { Kysely } from 'kysely';
import type { GallerySort } from '../../common/api-types.js';
import type { DataPaths } from '../context.js';
import type { Sqlite } from '../db/open.js';
import type { DB } from '../db/schema.js';
import type { EventBus } from '../events/bus.js';
import type { Processing } from '../processing/processing.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { MediaUrls } from './photos.mappers.js';

// What the photos service is given, and how a gallery list is asked for (photos.service.ts).

export interface PhotosDeps {
  paths: DataPaths;
  db: Kysely<DB>;
  /** The connection the public gallery reads with synchronous prepared statements (its hot path). */
  sqlite: Sqlite;
  bus: EventBus;
  processing: Processing;
  settings: SettingsService;
  /**
   * The couple's bucket (S3_SERVE): visible photos' copied derivatives are served from it in the
   * gallery's and the admin pages' answers. Absent: everything comes from this site.
   */
  media?: MediaUrls | null;
}

/**
 * Which gallery list: one moment, the highlights, or all listed photos newest first or most loved
 * first. `wall`: the reception wall's list (shown before the reveal time, the highlights when the
 * couple chose so). `guestId`: whose hearts the answer marks.
 */
export interface GalleryQuery {
  moment?: string;
  /** A photo challenge's id: the photos guests added for it. */
  challenge?: string;
  /** A table's number: the photos sent from its QR sign. */
  table?: number;
  sort?: GallerySort;
  highlights?: boolean;
  wall?: boolean;
  guestId?: string;
}
