// What the film shows and when: which photos and clips, how long each stays, where each starts
// on the timeline, and the chapters. Frames only, no ffmpeg (film.ts draws it).
import type { FilmPlan, PlanItem } from '../processing/keepsake-plan.js';

export const FPS = 30;
export const FILM_WIDTH = 1920;
export const FILM_HEIGHT = 1080;
/** A cross-fade: 0.8 s. */
export const XF = 24;
const TITLE = 4 * FPS;
const CLOSING = 4 * FPS;
/** A photo stays 3 to 7 s; a clip gives its best 2 to 5 s. */
const PHOTO_MIN = 3 * FPS;
const PHOTO_MAX = 7 * FPS;
const CLIP_MIN = 2 * FPS;
const CLIP_MAX = 5 * FPS;

/** One piece of the film: the title, a photo, a clip's best seconds or the closing card, `frames` long (cross-fades included). */
export type Piece =
  | { kind: 'title' | 'closing'; frames: number }
  | { kind: 'photo'; frames: number; item: PlanItem }
  | { kind: 'clip'; frames: number; item: PlanItem; start: number };

/**
 * Which items the film shows and for how long, so that it lasts `seconds` (to the frame) where
 * there is material enough; `items` come best first and are shown in the order they were taken.
 */
export function arrange(items: PlanItem[], seconds: number, dayOrder: (a: PlanItem, b: PlanItem) => number): Piece[] {
  const target = Math.round(seconds * FPS);
  const clipFrames = (p: PlanItem) => Math.min(CLIP_MAX, Math.floor((p.duration ?? 0) * FPS));
  // Clips: at most a quarter of the film.
  let clips = items.filter((p) => p.video && clipFrames(p) >= CLIP_MIN);
  const clipBudget = target / 4;
  let sum = 0;
  clips = clips.filter((p) => (sum + clipFrames(p) <= clipBudget ? ((sum += clipFrames(p)), true) : false));
  const clipTotal = clips.reduce((n, p) => n + clipFrames(p), 0);
  const photos = items.filter((p) => !p.video);
  // Frames the photos share once the cards and clips have theirs; each piece after the first overlaps the one before by XF.
  const share = (k: number) => target - TITLE - CLOSING - clipTotal + XF * (k + clips.length + 1);
  let k = photos.length;
  while (k > 1 && share(k) / k < PHOTO_MIN) k--;
  const chosen = photos.slice(0, k);
  const per = k ? Math.min(PHOTO_MAX, Math.floor(share(k) / k)) : 0;
  let extra = k && per < PHOTO_MAX ? share(k) - per * k : 0;
  const shown = [...chosen, ...clips].sort(dayOrder);
  const pieces: Piece[] = [{ kind: 'title', frames: TITLE }];
  for (const item of shown) {
    if (item.video) {
      const frames = clipFrames(item);
      const start = Math.max(0, ((item.duration ?? 0) - frames / FPS) / 2);
      pieces.push({ kind: 'clip', frames, item, start: Math.round(start * 1000) / 1000 });
    } else {
      const more = extra > 0 ? 1 : 0;
      extra -= more;
      pieces.push({ kind: 'photo', frames: per + more, item });
    }
  }
  pieces.push({ kind: 'closing', frames: CLOSING });
  return pieces;
}

/** The plan's pieces: its items come best first; the film shows those it takes in the order of the day (each moment by the time taken). */
export const filmPieces = (plan: FilmPlan): Piece[] =>
  arrange(plan.items, plan.seconds, (a, b) => (a.moment < 0 ? 1e9 : a.moment) - (b.moment < 0 ? 1e9 : b.moment) || a.at - b.at);

/** Where each piece starts on the film's timeline (frames), and the film's length. */
export function timeline(pieces: Piece[]): { starts: number[]; total: number } {
  const starts: number[] = [];
  let t = 0;
  for (const p of pieces) {
    starts.push(t);
    t += p.frames - XF;
  }
  return { starts, total: t + XF };
}

/** The chapters: one per moment, from the first piece that belongs to it (the first from the film's start). */
export function chapters(plan: FilmPlan, pieces: Piece[], starts: number[], total: number): { title: string; start: number; end: number }[] {
  const out: { title: string; start: number; end: number }[] = [];
  pieces.forEach((p, i) => {
    if (p.kind !== 'photo' && p.kind !== 'clip') return;
    const m = p.item.moment;
    if (m < 0 || out[out.length - 1]?.title === plan.moments[m]) return;
    out.push({ title: plan.moments[m], start: out.length ? starts[i] : 0, end: total });
  });
  if (!out.length) out.push({ title: plan.title, start: 0, end: total });
  for (let i = 0; i < out.length - 1; i++) out[i].end = out[i + 1].start;
  return out;
}
