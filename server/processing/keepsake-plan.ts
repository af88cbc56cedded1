// What the server hands the media worker to make a keepsake: every file by absolute path and
// every text already in the wedding's language, so the worker needs no database. It lives with
// the worker's protocol (processing carries it); keepsakes/ makes and reads it.
import type { Paper } from '../../common/keepsake-types.js';

/** One font file of a theme's face and the characters it holds (its CSS unicode-range). */
export interface FontFile {
  file: string;
  /** Inclusive code point ranges. */
  ranges: [number, number][];
}

/** A face (the names' serif, the text's sans) as files split by script, Latin first. */
export interface KeepsakeFace {
  family: string;
  files: FontFile[];
}

export interface KeepsakeFonts {
  serif: KeepsakeFace;
  sans: KeepsakeFace;
}


/** A visible photo or video, in the order of the day. */
export interface PlanItem {
  id: string;
  video: boolean;
  /** The file to draw from: the original where it can be read, else the display copy. */
  file: string;
  /** The display copy (a still or the video's web copy), tried when `file` cannot be read. */
  fallback: string | null;
  width: number;
  height: number;
  /** Seconds (videos). */
  duration: number | null;
  /** "by Anna", or null when nobody's name is known. */
  byline: string | null;
  /** Index into the plan's moments, or -1 when no moment's window holds it. */
  moment: number;
  /** When it was taken (else uploaded), epoch ms. */
  at: number;
}

export interface PlanColours {
  bg: string;
  text: string;
  accent: string;
}

export interface PlanBase {
  output: string;
  /** A folder of its own for the work in progress (removed afterwards). */
  work: string;
  title: string;
  names: string;
  date: string;
  fonts: KeepsakeFonts;
  colours: PlanColours;
  /** The cover photo (a still), or null: for a book the original, for a film the display copy. */
  cover: string | null;
  /** Where the cover is read from when `cover` cannot be (a book's original sharp cannot read: its display copy). */
  coverFallback?: string | null;
  /** The moments' titles in schedule order; the last one may stand for "the rest of the day". */
  moments: string[];
  items: PlanItem[];
}

export interface FilmPlan extends PlanBase {
  kind: 'film';
  seconds: number;
  /** The couple's track, or null. */
  music: string | null;
  closing: string;
  ffmpegPath: string;
  ffprobePath: string;
}

export interface BookMessage {
  name: string;
  text: string;
  when: string;
  /** The address that plays its voice note, or null without one. */
  voiceUrl: string | null;
}

export interface BookPlan extends PlanBase {
  kind: 'book';
  paper: Paper;
  texts: { guestbook: string; scanToListen: string; photos: string };
  messages: BookMessage[];
}

export type KeepsakePlan = FilmPlan | BookPlan;

/** What the worker answers: the file's size, and what it holds. */
export interface KeepsakeOutcome {
  bytes: number;
  seconds?: number;
  pages?: number;
}

/** How the worker reports and yields while it works. */
export interface MakeControl {
  signal?: AbortSignal;
  /** 0-100. */
  progress(percent: number): void;
  /** Resolves when the keepsake may go on (uploads' processing goes first). */
  turn(): Promise<void>;
  /** The running ffmpeg, so it can be paused and resumed. */
  onTool?(tool: { pause(): void; resume(): void }): void;
}
