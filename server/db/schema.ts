import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { ActivityType, PhotoStatus, Role } from '../../common/api-types.js';
import type { FaceGuestsTable, FaceMatchesTable, FaceBoxesTable, AuditLogTable, WebauthnHandlesTable, PasskeysTable, TwoStepTable, RecoveryCodesTable, KeepsakesTable, KeepsakeMusicTable, KeepsakeShareTable, OffsiteObjectsTable, OffsiteDirtyTable, OffsiteMetaTable } from './schema-features.js';
export type { FaceGuestsTable, FaceMatchesTable, FaceBoxesTable, AuditLogTable, WebauthnHandlesTable, PasskeysTable, TwoStepTable, RecoveryCodesTable, KeepsakesTable, KeepsakeMusicTable, KeepsakeShareTable, OffsiteObjectsTable, OffsiteDirtyTable, OffsiteMetaTable } from './schema-features.js';

// The stored strings are the API's: declared once in common/api-types.ts.
export type { ActivityType, PhotoStatus, Role } from '../../common/api-types.js';
export type JobStatus = 'queued' | 'running' | 'done' | 'failed';

export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  full_name: string;
  role: Role;
  password_hash: string;
  is_active: number;
  created_at: string;
  last_login: string | null;
}

export interface SessionsTable {
  sid: string;
  sess: string;
  expires: number;
}

export interface ActivityTable {
  id: Generated<number>;
  type: ActivityType;
  description: string;
  user_name: string | null;
  created_at: string;
  /** Upload rows: the guest whose burst of files this row counts. */
  guest_id: string | null;
  photo_count: Generated<number>;
  video_count: Generated<number>;
  /** The line as a catalogue message (JSON {key, values}): shown in the reader's language. */
  message: string | null;
}

export interface SettingsTable {
  id: number;
  data: string;
  updated_at: string;
}

export interface PhotosTable {
  id: string;
  original_filename: string;
  /** Relative to DATA_DIR. */
  stored_path: string;
  content_type: string;
  file_size: number;
  sha256: string;
  /** As displayed (after EXIF orientation and admin rotation). */
  width: number | null;
  height: number | null;
  orientation: number | null;
  /** Clockwise degrees applied by admins on top of the EXIF orientation. */
  rotation: Generated<number>;
  duration: number | null;
  date_taken: string | null;
  camera_make: string | null;
  camera_model: string | null;
  status: Generated<PhotoStatus>;
  processing_error: string | null;
  /** Relative to DATA_DIR. */
  thumb_path: string | null;
  display_path: string | null;
  derivative_version: Generated<number>;
  is_visible: Generated<number>;
  upload_timestamp: string;
  approved_at: string | null;
  session_id: string | null;
  uploader_name: string | null;
  /** The guest's random id (the wedding_guest cookie) that sent it; null before guests were told apart. */
  guest_id: string | null;
  /** Set when the original was found at start with no row (a crash before its row): never approved automatically. */
  recovered_at: Generated<string | null>;
  /** Guests' hearts: the count of its rows in `hearts`, kept by the same write. */
  hearts: Generated<number>;
  highlighted: Generated<number>;
  /** dHash of the image (16 hex digits), null until measured and for videos. */
  phash: string | null;
  /** Variance of the Laplacian on the fixed-size measuring copy. */
  sharpness: number | null;
  /** Comma-separated QualityFlag list ('' when none); null until measured. */
  quality_flags: string | null;
  /** Epoch ms the picture was taken (else uploaded): what "within two minutes" compares. */
  shot_at: number | null;
  /** Shared by a group of similar shots (the id of one of them), null when alone. */
  similar_group: string | null;
  /** 1: hidden by "Keep this, hide the rest", so it leaves the approval queue (0 again once shown). */
  set_aside: Generated<number>;
  /** The photo challenge (settings.challenges) the guest picked for it; null when none. */
  challenge_id: Generated<string | null>;
  /** The table whose QR sign the upload came from, or null. */
  table_number: Generated<number | null>;
}

/** One guest's heart on one photo (the guest by the wedding_guest cookie). */
export interface HeartsTable {
  photo_id: string;
  guest_id: string;
  created_at: number;
}

export interface UploadsTable {
  id: string;
  upload_key: string;
  session_id: string;
  filename: string;
  total_size: number;
  received_bytes: Generated<number>;
  /** Relative to DATA_DIR. */
  temp_path: string;
  status: Generated<'receiving' | 'complete'>;
  photo_id: string | null;
  duplicate: Generated<number>;
  created_at: number;
  updated_at: number;
  /** Who opened it (req.ip): unfinished uploads are capped per client address. */
  client_address: string | null;
}

export interface JobsTable {
  id: Generated<number>;
  type: string;
  photo_id: string | null;
  payload: Generated<string>;
  idempotency_key: string | null;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_after: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

/** Bytes of a photo's derivatives as last measured, valid while its paths are the same. */
export interface MediaBytesTable {
  photo_id: string;
  thumb_path: string | null;
  display_path: string | null;
  bytes: number;
}

/** Where a voice note stands: none sent, its playable copy being made, made, or failed. */
export type AudioStatus = 'none' | 'processing' | 'complete' | 'error';

export interface GuestbookTable {
  id: string;
  /** The wedding_guest cookie of the browser that wrote it. */
  guest_id: string | null;
  name: string | null;
  message: string;
  is_visible: Generated<number>;
  approved_at: string | null;
  created_at: string;
  /** The voice note as sent, relative to DATA_DIR; null without one. */
  audio_path: string | null;
  /** Its sniffed type (audio/webm, audio/ogg, audio/mp4, audio/wav). */
  audio_type: string | null;
  audio_size: number | null;
  audio_sha256: string | null;
  /** Seconds, read from the file's own packets. */
  duration: number | null;
  /** The copy every browser plays (AAC in MP4), relative to DATA_DIR. */
  web_audio_path: string | null;
  web_audio_size: number | null;
  audio_status: Generated<AudioStatus>;
  audio_error: string | null;
  /** The address it came from when its request carried no guest cookie (the hourly limit counts by it then). */
  anonymous_address: Generated<string | null>;
}

/** A guest whose upload of a stored photo's bytes was answered "duplicate": the photo is theirs too. */
export interface PhotoOwnersTable {
  photo_id: string;
  guest_id: string;
  uploader_name: string | null;
  added_at: string;
}

/** A tablet a signed-in user opened the photo booth on (its token's SHA-256 only). */
export interface BoothsTable {
  id: string;
  token_hash: string;
  created_by: number | null;
  created_by_name: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A booth picture's QR code: opens that one picture until it expires. */
export interface BoothSharesTable {
  token_hash: string;
  photo_id: string;
  booth_id: string;
  created_at: string;
  expires_at: string;
}

/** An original whose photo was deleted, until its file is gone (the start-up sweep never adopts it). */
export interface RemovedOriginalsTable {
  stored_path: string;
  photo_id: string;
  removed_at: string;
}

export interface EventsTable {
  id: Generated<number>;
  type: string;
  data: string;
  created_at: number;
}


export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  activity: ActivityTable;
  settings: SettingsTable;
  photos: PhotosTable;
  uploads: UploadsTable;
  jobs: JobsTable;
  events: EventsTable;
  media_bytes: MediaBytesTable;
  face_guests: FaceGuestsTable;
  face_matches: FaceMatchesTable;
  face_boxes: FaceBoxesTable;
  audit_log: AuditLogTable;
  webauthn_handles: WebauthnHandlesTable;
  passkeys: PasskeysTable;
  two_step: TwoStepTable;
  recovery_codes: RecoveryCodesTable;
  hearts: HeartsTable;
  guestbook: GuestbookTable;
  photo_owners: PhotoOwnersTable;
  booths: BoothsTable;
  booth_shares: BoothSharesTable;
  removed_originals: RemovedOriginalsTable;
  offsite_objects: OffsiteObjectsTable;
  offsite_dirty: OffsiteDirtyTable;
  offsite_meta: OffsiteMetaTable;
  keepsakes: KeepsakesTable;
  keepsake_music: KeepsakeMusicTable;
  keepsake_share: KeepsakeShareTable;
}


export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type PhotoRow = Selectable<PhotosTable>;
export type NewPhotoRow = Insertable<PhotosTable>;
export type PhotoUpdate = Updateable<PhotosTable>;
export type UploadRow = Selectable<UploadsTable>;
export type JobRow = Selectable<JobsTable>;
export type ActivityRow = Selectable<ActivityTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type NewAuditLogRow = Insertable<AuditLogTable>;
export type PasskeyRow = Selectable<PasskeysTable>;
export type GuestbookRow = Selectable<GuestbookTable>;
export type NewGuestbookRow = Insertable<GuestbookTable>;
