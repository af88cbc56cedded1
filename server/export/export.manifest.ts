import type { ExportPhoto } from './export.repo.js';

/** One file of the archive as manifest.json describes it; null where unknown. */
export type ManifestFile = Omit<ExportPhoto, 'stored_path' | 'is_visible'> & {
  /** Its path in the archive. */
  name: string;
  /** Of the bytes written into the archive. */
  sha256: string;
  is_visible: boolean | null;
};

/** A guestbook voice note in the archive (beside guestbook/guestbook.html). */
export interface ManifestVoiceNote {
  name: string;
  /** The message's id. */
  id: string;
  guest_name: string | null;
  created_at: string;
  content_type: string | null;
  duration: number | null;
  file_size: number;
  sha256: string;
}

export interface ManifestUnreadable {
  id: string;
  original_filename: string;
  error: string;
}

/** Size and checksum are those of the bytes written, which is what a restore must trust. */
export function manifestEntry(p: ExportPhoto, name: string, bytes: number, sha256: string): ManifestFile {
  return {
    name,
    id: p.id,
    original_filename: p.original_filename,
    content_type: p.content_type,
    file_size: bytes,
    sha256,
    upload_timestamp: p.upload_timestamp,
    date_taken: p.date_taken ?? null,
    camera_make: p.camera_make ?? null,
    camera_model: p.camera_model ?? null,
    width: p.width ?? null,
    height: p.height ?? null,
    is_visible: typeof p.is_visible === 'boolean' ? p.is_visible : null,
    uploader_name: p.uploader_name ?? null,
  };
}

/**
 * Collects manifest.json while the archive is written. Entries are kept as their JSON text
 * (a few hundred bytes each), not as objects, so a large export stays light.
 */
export class ExportManifest {
  private readonly files: string[] = [];
  private readonly missing: string[] = [];
  private readonly unreadable: string[] = [];
  private readonly voiceNotes: string[] = [];

  get fileCount(): number {
    return this.files.length;
  }

  addFile(f: ManifestFile): void {
    this.files.push(JSON.stringify(f));
  }

  addVoiceNote(v: ManifestVoiceNote): void {
    this.voiceNotes.push(JSON.stringify(v));
  }

  /** An id asked for that names no photo. */
  addMissing(id: string): void {
    this.missing.push(JSON.stringify(id));
  }

  /** A photo whose original could not be opened: left out of the archive, said so here. */
  addUnreadable(p: ExportPhoto, error: string): void {
    this.unreadable.push(JSON.stringify({ id: p.id, original_filename: p.original_filename, error } satisfies ManifestUnreadable));
  }

  /** {"files": [...], "missing": [...], "unreadable": [...], "guestbook": [...]}, one file per line. */
  toBuffer(): Buffer {
    const list = (items: string[]) => (items.length ? `[\n    ${items.join(',\n    ')}\n  ]` : '[]');
    return Buffer.from(
      `{\n  "files": ${list(this.files)},\n  "missing": ${list(this.missing)},\n  "unreadable": ${list(this.unreadable)},\n  "guestbook": ${list(this.voiceNotes)}\n}\n`,
    );
  }
}
