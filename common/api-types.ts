/**
 * What the server answers and the client reads: shared by both sides. The client imports this
 * file with `import type` only, so nothing of the server's runtime reaches the browser bundle.
 */

/** Stable machine codes of every API error; the client decides on these, never on the sentence. */
export type ErrorCode =
  | 'invalid_input' // 400
  | 'not_signed_in' // 401
  | 'forbidden' // 403
  | 'two_step_required' // 403: set up a passkey or authenticator codes on /admin/security first
  | 'uploads_disabled' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_large' // 413
  | 'unsupported_type' // 415
  | 'range_not_satisfiable' // 416
  | 'unprocessable' // 422
  | 'rate_limited' // 429
  | 'unavailable' // 503
  | 'storage_full' // 507
  | 'face_search_off' // 404: face search is not turned on
  | 'consent_required' // 400: the face search's consent box was not ticked
  | 'no_face' // 422: no face in the selfie
  | 'downloads_off' // 404: guest downloads are turned off
  | 'shot_limit_reached' // 403: this guest used every shot the couple allows (shot_limit)
  | 'internal'; // 500

/** Every API error answer. */
export interface ApiError {
  success: false;
  error: string;
  code: ErrorCode;
  [extra: string]: unknown;
}

// ---- Shared vocabulary (the database stores the same strings) ----

export type Role = 'family' | 'bride' | 'groom' | 'admin';
export type PhotoStatus = 'processing' | 'complete' | 'error';
export type ActivityType = 'upload' | 'login' | 'approval' | 'user_created' | 'other';
/** The command-line tools processing needs: ffmpeg and ffprobe for videos, heif-convert for iPhone HEIC photos. */
export type ToolName = 'ffmpeg' | 'ffprobe' | 'heif-convert';

// The admin screens' types live in admin-types.ts; named here too so importers need not change.
export type {
  Permissions,
  SessionUser,
  MeResponse,
  ApiUser,
  UserForm,
  UsersResponse,
  UserResponse,
  AdminPhoto,
  AdminPagination,
  AdminPhotoList,
  PhotoResponse,
  BulkVisibilityResponse,
  BulkDeleteResponse,
  RegenerateAllResponse,
  DownloadResponse,
  QualityFlag,
  KeepBestResponse,
  UploaderCount,
  UploadersResponse,
  DashboardStats,
  ActivityItem,
  Dashboard,
  MissingTool,
  DashboardResponse,
  AdminGuestbookEntry,
  AdminGuestbookList,
  AdminGuestbookResponse,
  ChallengeTotals,
} from './admin-types.js';

// ---- Photos ----

/** What the public gallery (and the reception wall's event stream) shows of a photo. */
export interface GalleryItem {
  id: string;
  content_type: string;
  thumbnail_url: string | null;
  /** The name is kept for client compatibility; it is this server's display copy. */
  backblaze_url: string | null;
  original_filename: string;
  upload_timestamp: string;
  date_taken: string | null;
  camera_make: string | null;
  camera_model: string | null;
  width: number | null;
  height: number | null;
  /** The title of the schedule item whose start/end window holds the photo's time, or null. */
  moment: string | null;
  /** The name the guest gave; null when anonymous or while show_uploader_names is off. */
  uploader_name: string | null;
  /** Seconds, for videos (null for photos and when unknown). */
  duration: number | null;
  /** Guests' hearts on it. */
  hearts: number;
  /** Whether this guest (the wedding_guest cookie) hearted it. */
  hearted: boolean;
  /** One of the couple's highlights. */
  highlighted: boolean;
  /** The title of the photo challenge the guest picked for it, or null. */
  challenge: string | null;
  /** The table whose QR sign it was sent from (/live?table=7), or null. */
  table: number | null;
}

/** PUT/DELETE /api/photos/{id}/heart */
export interface HeartResponse {
  success: true;
  hearted: boolean;
  hearts: number;
}

/** GET /api/photos?sort=: newest first (the default) or most hearts first. */
export type GallerySort = 'newest' | 'loved';

/** A visible photo or video as GET /api/photos and the photo-visible event carry it. */
export type WallItem = GalleryItem;

/** Data of the live events (GET /api/events): photo-visible carries the item, photo-hidden its id. */
export interface LiveEventData {
  'photo-visible': GalleryItem;
  'photo-hidden': { id: string };
  /** The couple paused or resumed the wall, drew or opened the curtain, changed its layout, or chose what it shows. */
  'wall-state': { paused: boolean; blank?: boolean; layout?: WallLayout; source?: WallSource };
  /** From the couple's remote: the next slide, the one shown before, or a photo now. */
  'wall-command': WallCommand;
  /** A short text shown over the wall for `seconds`. */
  'wall-announce': { text: string; seconds: number };
  /** A guestbook message became visible: the wall shows it as a slide of its own (no sound). */
  'guestbook-visible': WallMessage;
  /** A message was hidden or deleted. */
  'guestbook-hidden': { id: string };
}

/** GET /api/public-url: the address guests reach, and its /live page (for QR codes). */
export interface PublicUrlResponse {
  success: true;
  url: string;
  live_url: string;
}

/** Paging of the public gallery (offset based). */
export interface GalleryPagination {
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

/** GET /api/photos */
export interface GalleryResponse {
  success: true;
  photos: GalleryItem[];
  pagination: GalleryPagination;
  /** Present while the gallery is still closed: when it opens (ISO 8601); the list is empty until then. */
  opens_at?: string;
}

/** SPEC §3 "stats": GET /api/stats answers {success, stats}. */
export interface Stats {
  total_photos: number;
  total_size_mb: number;
  media_breakdown: { images: number; videos: number };
  cameras: { name: string; count: number }[];
  unique_devices: number;
  /** Every challenge the couple set, in their order, with its count of visible photos. */
  challenges: ChallengeCount[];
}

/** A photo challenge with how many gallery photos answer it (GET /api/stats). */
export interface ChallengeCount extends Challenge {
  count: number;
}

export interface StatsResponse {
  success: true;
  stats: Stats;
}

// ---- Guests by name ----

/** One of the calling guest's own uploads (GET /api/my/uploads), hidden ones included. */
export interface MyUpload {
  id: string;
  original_filename: string;
  content_type: string;
  status: PhotoStatus;
  is_visible: boolean;
  /** Serves to this guest even while the photo is hidden. */
  thumbnail_url: string | null;
  upload_timestamp: string;
  uploader_name: string | null;
}

/** GET /api/my/uploads */
export interface MyUploadsResponse {
  success: true;
  photos: MyUpload[];
  pagination: GalleryPagination;
}

// ---- Wedding settings (SPEC §2, GET /api/settings, /admin/api/settings) ----

export interface ScheduleItem {
  title: string;
  /** e.g. "Friday, 6 June 2025" */
  day: string;
  /** e.g. "7:00-9:00 PM" */
  time: string;
  venue: string;
  location: string;
  attire: string;
  /** Who may attend. */
  attendance: string;
  description: string;
  /** The moment's window (ISO 8601 with an offset); photos taken in it belong to this item. */
  starts_at?: string | null;
  ends_at?: string | null;
  /**
   * Public settings only, when the title shown is a translation: the title the settings hold,
   * which `GET /api/photos?moment=` and gallery items' `moment` use.
   */
  moment?: string;
}

/** A schedule item's texts in another language; any may be left out. */
export type ScheduleText = Partial<Pick<ScheduleItem, 'title' | 'day' | 'time' | 'venue' | 'location' | 'attire' | 'attendance' | 'description'>>;

/** The couple's words in one language (settings.translations.<code>); any field optional. */
export interface TranslatedTexts {
  welcome_text?: string;
  photo_sharing_text?: string;
  thank_you_text?: string;
  couple_names?: [string, string];
  /** By position: the n-th entry translates the n-th schedule item. */
  schedule?: ScheduleText[];
}

/** Language code -> the couple's words in it. */
export type Translations = Partial<Record<string, TranslatedTexts>>;

/** A language the site speaks: code, its name in itself, writing direction. */
export interface LanguageInfo {
  code: string;
  name: string;
  dir: 'ltr' | 'rtl';
}

/** A photo challenge set by the couple ("A photo with the oldest guest"). */
export interface Challenge {
  /** Short and stable: photos keep it (field challenge_id) while the title may be reworded. */
  id: string;
  title: string;
  description: string;
}

/** manual: new uploads wait for approval; auto: a new upload becomes visible once processed. */
export type Moderation = 'manual' | 'auto';

/** What the wall shows: every visible photo, or only the couple's highlights. */
export type WallSource = 'all' | 'highlights';

/** How the wall lays photos out: one at a time, a grid, one large with a few small, or the three in turn. */
export type WallLayout = 'single' | 'mosaic' | 'magazine' | 'cycle';
export const WALL_LAYOUTS: readonly WallLayout[] = ['single', 'mosaic', 'magazine', 'cycle'];

/** POST /admin/api/wall/command; "show" names a visible photo. */
export type WallCommand = { command: 'next' | 'previous' } | { command: 'show'; photo_id: string };

/** PUT /admin/api/wall and its answer: the wall's pause, curtain and layout. */
export interface WallControls {
  paused: boolean;
  blank: boolean;
  layout: WallLayout;
}

/** One open wall as its heartbeat last told (GET /admin/api/walls). */
export interface WallSeen extends WallControls {
  id: string;
  /** ISO 8601. */
  last_seen: string;
  /** The photo it shows now, or null (a message, the curtain, nothing yet). */
  showing: string | null;
  /** Not heard from for 60 s. */
  lost: boolean;
}

export interface WallsResponse {
  success: true;
  walls: WallSeen[];
  /** Walls heard from within the last 60 s. */
  connected: number;
}

export interface WeddingSettings {
  couple_names: [string, string];
  welcome_message: string;
  photo_sharing_message: string;
  thank_you_message: string;
  schedule: ScheduleItem[];
  uploads_enabled: boolean;
  moderation: Moderation;
  /** null: the gallery is open; else it opens at this time (ISO 8601). */
  gallery_opens_at: string | null;
  /** The wall shows only its QR code while paused. */
  wall_paused: boolean;
  /** IANA zone the schedule's times are entered in, e.g. "Europe/Berlin". */
  time_zone: string;
  /** Gallery, viewer and wall show who shared a photo ("Shared by Anna"). */
  show_uploader_names: boolean;
  /** The language of the texts above, and of a page whose reader names none we speak. */
  default_language: string;
  /** The texts above in other languages (admin settings only; GET /api/settings answers them resolved). */
  translations?: Translations;
  /** "Find photos of me": guests may search the gallery with a selfie. Off by default. */
  face_search: boolean;
  /** When the face search ends and every face code and match is deleted (ISO 8601); null while off. */
  face_search_until: string | null;
  /** The guest pages' look: one of the themes GET /admin/api/settings lists. */
  theme: string;
  /** #rrggbb in place of the theme's accent, or null; a colour that would not read is adjusted (accent_color_used). */
  accent_color: string | null;
  /** An approved photo shown above the names on the home page and on an idle wall, or null. */
  cover_photo_id: string | null;
  /** An uploaded cover image (POST /admin/api/settings/cover), never in the gallery; it wins over cover_photo_id. */
  cover_image: string | null;
  /** Guests may download a photo from the viewer and the whole gallery as a ZIP. */
  guest_downloads: boolean;
  wall_source: WallSource;
  wall_layout: WallLayout;
  /** The curtain: the wall shows only a calm screen with the names. */
  wall_blank: boolean;
  /** Tables with a QR sign of their own (0-200); uploads from one carry its number. */
  tables: number;
  /** Photo challenges guests may pick for their files (at most 30). */
  challenges: Challenge[];
  /** The disposable-camera game: photos and videos each guest may add (1-100), or null for no limit. */
  shot_limit: number | null;
  /** The frame photos taken in the page and the booth may carry (one of `frames`), or null for none. */
  frame: string | null;
}

/** A frame the couple can offer (GET /admin/api/settings). */
export interface FrameInfo {
  id: string;
  name: string;
}

/** GET /api/my/shots: the calling guest's shots under shot_limit; both null when not limited. */
export interface ShotsResponse {
  success: true;
  shot_limit: number | null;
  shots_left: number | null;
}

/** A theme the couple can choose (GET /admin/api/settings). */
export interface ThemeInfo {
  id: string;
  name: string;
  /** The theme's font stylesheet, for the settings page's preview. */
  fonts_css: string | null;
}

/** GET/PUT /admin/api/settings */
export interface AdminSettingsResponse extends SettingsResponse {
  themes: ThemeInfo[];
  frames: FrameInfo[];
  /** The accent the pages use: accent_color, or the colour it was adjusted to; null without an accent. */
  accent_color_used: string | null;
  cover_url: string | null;
}

export interface SettingsResponse {
  success: true;
  settings: WeddingSettings;
}

/** GET /api/settings: the texts in the request's language, and which languages there are. */
export interface PublicSettingsResponse extends SettingsResponse {
  /** The cover image's address, or null. */
  cover_url: string | null;
  language: string;
  default_language: string;
  languages: LanguageInfo[];
}

// ---- Find the photos you're in ----

/** A photo the guest appears in: the gallery item and how alike the faces are (0-1, 1 the same picture). */
export interface FaceMatch extends GalleryItem {
  similarity: number;
}

/** POST and GET /api/faces/me */
export interface FaceSearchResponse {
  success: true;
  /** The scan is still going through the gallery; more matches may come. */
  searching: boolean;
  /** Photos compared so far, of `total`. */
  scanned: number;
  total: number;
  /** Best first; visible photos only. */
  matches: FaceMatch[];
  /** When this guest's face code and matches are deleted anyway (the search's end). */
  until: string | null;
}

/** GET /admin/api/faces: the dashboard's card. */
export interface FaceSearchStatus {
  enabled: boolean;
  until: string | null;
  /** Guests who have a face code now. */
  guests: number;
  matches: number;
  /** Photos the scan still has to read, and the guests whose search is still going. */
  photos_to_scan: number;
  guests_searching: number;
}

export interface FaceSearchStatusResponse {
  success: true;
  faces: FaceSearchStatus;
}

// ---- Guestbook ----

/** A visible guestbook message (GET /api/guestbook). */
export interface GuestbookEntry {
  id: string;
  /** The name the guest gave; null when anonymous. */
  name: string | null;
  message: string;
  /** The voice note as every browser plays it (AAC in MP4); null without one or until it is ready. */
  audio_url: string | null;
  /** Seconds of the voice note; null without one. */
  duration: number | null;
  created_at: string;
}

/** GET /api/guestbook */
export interface GuestbookResponse {
  success: true;
  entries: GuestbookEntry[];
  pagination: GalleryPagination;
}

/** pending: not (or no longer) shown to guests; visible: in the guestbook and on the wall. */
export type GuestbookStatus = 'pending' | 'visible';
/** none: no voice note; processing: its playable copy is being made; error: it could not be. */
export type VoiceNoteStatus = 'none' | 'processing' | 'complete' | 'error';

/** POST /api/guestbook */
export interface GuestbookCreatedResponse {
  success: true;
  entry: { id: string; status: GuestbookStatus };
}

/** One of the calling guest's own messages (GET /api/my/guestbook), hidden ones included. */
export interface MyGuestbookEntry extends GuestbookEntry {
  status: GuestbookStatus;
  audio_status: VoiceNoteStatus;
}

/** GET /api/my/guestbook */
export interface MyGuestbookResponse {
  success: true;
  entries: MyGuestbookEntry[];
  pagination: GalleryPagination;
}

/** What the wall shows of a message: its words and name, never its sound. */
export interface WallMessage {
  id: string;
  name: string | null;
  message: string;
  created_at: string;
}
