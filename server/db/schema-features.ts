import type { Generated } from 'kysely';

// The tables of the features beyond the core (faces, the audit log and sign-in security,
// keepsakes, the off-site copy), apart from schema.ts to keep each file short; schema.ts
// gathers them in `DB` and exports them with its own.

/** A guest who asked to find their photos: their face code (128 float32, little-endian). */
export interface FaceGuestsTable {
  guest_id: string;
  code: Uint8Array;
  created_at: string;
  /** 1 once every photo visible when they asked was compared. */
  scan_complete: Generated<number>;
}

export interface FaceMatchesTable {
  guest_id: string;
  photo_id: string;
  /** Euclidean distance between the two codes (faces/similarity.ts). */
  distance: number;
}

/** Face boxes (relative coordinates, JSON) measured on the file at `source`: nothing that identifies anyone. */
export interface FaceBoxesTable {
  photo_id: string;
  source: string;
  boxes: string;
}

/** One admin action or sign-in: who, what, which ids, when, from where. */
export interface AuditLogTable {
  id: Generated<number>;
  /** ISO 8601. */
  at: string;
  /** Null for a failed sign-in under an unknown name. */
  user_id: number | null;
  /** As it was at the time (kept after the account is gone), or as typed at a failed sign-in. */
  username: string | null;
  action: string;
  /** JSON array of the ids acted on. */
  ids: string | null;
  /** JSON object with whatever else says what happened. */
  detail: string | null;
  address: string | null;
}

/** The random WebAuthn user handle of an account (its passkeys carry it, never the username). */
export interface WebauthnHandlesTable {
  user_id: number;
  handle: string;
}

export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: number;
  public_key: Uint8Array;
  counter: number;
  /** JSON array of the authenticator's transports. */
  transports: string | null;
  device_type: string | null;
  backed_up: number;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** An account's authenticator-code secret (base32) once it is turned on. */
export interface TwoStepTable {
  user_id: number;
  secret: string;
  enabled_at: string;
  /** The last 30-second step a code was accepted for: each code signs in once. */
  last_step: number;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the normalised code; the code itself is shown once and never stored. */
  code_hash: string;
  used_at: string | null;
}

/** A film or photo book made from the day (its file under media/keepsakes/ once ready). */
export interface KeepsakesTable {
  id: string;
  kind: 'film' | 'book';
  status: Generated<'queued' | 'making' | 'ready' | 'error'>;
  progress: Generated<number>;
  /** JSON: what was asked (source, seconds, music_id, paper, title, the address its QR codes lead to). */
  options: string;
  /** Relative to DATA_DIR. */
  path: string | null;
  file_size: number | null;
  error: string | null;
  created_by: string | null;
  created_at: string;
  finished_at: string | null;
}

/** The couple's own track for the films. */
export interface KeepsakeMusicTable {
  id: string;
  /** Relative to DATA_DIR. */
  path: string;
  original_name: string;
  content_type: string;
  file_size: number;
  duration: number;
  created_at: string;
}

export interface KeepsakeShareTable {
  id: number;
  share_film: number;
  updated_at: string;
}

/** A file under DATA_DIR that belongs in the couple's bucket (the key below the prefix is `rel`). */
export interface OffsiteObjectsTable {
  rel: string;
  /** 'photo:<id>', 'guestbook:<id>' or 'cover': what the file belongs to. */
  owner: string;
  size: number;
  mtime_ms: number;
  /** Of the bytes copied (null until read). */
  sha256: string | null;
  state: 'pending' | 'copied' | 'deleting';
  tries: Generated<number>;
  /** Epoch ms before which it is not tried again. */
  next_at: Generated<number>;
  /** A multipart copy under way: its id and the parts the bucket confirmed (JSON). */
  upload_id: string | null;
  parts: string | null;
  copied_at: string | null;
  error: string | null;
  /** 1: an original removed from the local disk once the bucket held it (S3_KEEP_LOCAL=derivatives). */
  evicted: Generated<number>;
}

/** What changed since the copy last looked (filled by triggers on photos, guestbook and settings). */
export interface OffsiteDirtyTable {
  owner: string;
  at: number;
}

export interface OffsiteMetaTable {
  key: string;
  value: string;
}
