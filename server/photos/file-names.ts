/**
 * Names a file is shown or saved under. A guest chooses the original name, so it is data, not
 * a promise about the content: a download ends with the extension of what the file really is.
 */

/**
 * Control characters (C0, C1) and the bidirectional marks, embeddings, overrides and isolates
 * that let "photo\u202egpj.exe" read as "photoexe.jpg" in a file list.
 */
export const INVISIBLE_CHARS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Extensions by stored (sniffed) type; the first is the one added. */
const EXTENSIONS: Record<string, readonly string[]> = {
  'image/jpeg': ['jpg', 'jpeg', 'jpe'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'image/heic': ['heic', 'heif'],
  'image/heif': ['heif', 'heic'],
  'image/avif': ['avif'],
  'image/tiff': ['tif', 'tiff'],
  'video/mp4': ['mp4', 'm4v'],
  'video/x-m4v': ['m4v', 'mp4'],
  'video/quicktime': ['mov', 'qt'],
  'video/webm': ['webm'],
  'video/x-msvideo': ['avi'],
  'video/3gpp': ['3gp'],
};

/** "x.hta" stored as JPEG -> "x.hta.jpg"; "IMG_1.JPEG" stays; a type we do not know keeps the name. */
export function withRealExtension(name: string, contentType: string): string {
  const known = EXTENSIONS[contentType.toLowerCase()];
  if (!known) return name;
  const given = /\.([A-Za-z0-9]{1,8})$/.exec(name)?.[1]?.toLowerCase();
  return given && known.includes(given) ? name : `${name}.${known[0]}`;
}
