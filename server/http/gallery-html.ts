import * as arrowLeft from 'lucide-react/icons/arrow-left';
import * as heart from 'lucide-react/icons/heart';
import * as imageOff from 'lucide-react/icons/image-off';
import * as play from 'lucide-react/icons/play';
import * as refreshCw from 'lucide-react/icons/refresh-cw';
import type { GalleryItem, GalleryResponse } from '../../common/api-types.js';
import { EAGER_TILES, GALLERY_FIRST_PAGE } from '../../common/gallery.js';
import { translate } from '../i18n/messages.js';
import { escapeHtml, type FirstScreen } from './index-page.js';

/**
 * The gallery's first screen as plain markup, written into `/gallery`'s HTML inside the element
 * the app renders into: the browser fetches the first thumbnails while the scripts still load,
 * and paints them before any script has run. It is what the page's first render shows with the
 * same answer (client/pages/GalleryPage.tsx, components/guest/GalleryGrid.tsx): the same
 * elements, classes and texts, so the app's first render replaces it without a visible change
 * (tiles after the first few are drawn empty, as while their picture loads: see DRAWN_TILES).
 * The answer travels with it, so the app renders exactly these photos with these addresses.
 */
export function galleryScreen(language: string, page: GalleryResponse): FirstScreen | null {
  // Closed (opens_at) or empty: the app says so itself; only photos are worth the bytes.
  if (page.opens_at || !page.photos.length) return null;
  const t = (key: string, values?: Record<string, string | number>) => escapeHtml(translate(language, key, values));
  const html =
    '<div class="page" data-first-screen><main class="container gallery-page">' +
    `<a href="/live" class="back-link">${icon(arrowLeft, 18, 'flip-rtl')} ${t('gallery.back')}</a>` +
    `<header class="gallery-header"><div><h1>${t('gallery.title')}</h1><p class="muted" data-testid="gallery-count">${t('gallery.count', { count: page.pagination.total })}</p></div>` +
    `<div class="gallery-actions"><button type="button" class="btn btn-outline">${icon(refreshCw, 18)} ${t('gallery.refresh')}</button></div></header>` +
    `<div class="moment-filter" role="group" aria-label="${t('gallery.moments_label')}">` +
    `<button type="button" class="btn btn-sm " aria-pressed="true"><span dir="auto">${t('gallery.moments_all')}</span></button>` +
    `<button type="button" class="btn btn-sm btn-outline" aria-pressed="false"><span dir="auto">${t('gallery.most_loved')}</span></button></div>` +
    `<ul class="gallery-grid" aria-label="${t('gallery.grid_label')}">${page.photos.map((item, i) => tile(item, i, t)).join('')}</ul>` +
    (page.pagination.has_more ? `<div class="gallery-more"><button type="button" class="btn btn-outline">${t('gallery.load_more')}</button></div>` : '') +
    '</main></div>';
  return { html, answers: { [GALLERY_FIRST_PAGE]: page }, script: REMEMBER_TAP };
}

/**
 * A tile tapped before the app has taken over is remembered (its place in the grid), and the
 * app opens it once it has (client/pages/GalleryPage.tsx): a guest's first tap is not lost.
 */
const REMEMBER_TAP =
  "addEventListener('click',e=>{const b=e.target.closest&&e.target.closest('[data-first-screen] .gallery-tile');" +
  "if(b)self.__tapped=[...document.querySelectorAll('[data-first-screen] .gallery-tile')].indexOf(b)})";

type Text = (key: string, values?: Record<string, string | number>) => string;

/**
 * Tiles drawn with their picture; the others are drawn empty (the tile's own colour, as while a
 * picture loads) and get it from the app. A phone's first row: on a slow link, every picture that
 * loads before the app shares the link with its scripts, and a screenful of them delayed the app's
 * first render by seconds (bench:first-paint, docs/benchmarks.md).
 */
export const DRAWN_TILES = 3;

/** One tile and its heart, as GalleryGrid draws them. */
function tile(item: GalleryItem, index: number, t: Text): string {
  const video = item.content_type.startsWith('video/');
  const src = item.thumbnail_url ?? (video ? null : item.backblaze_url);
  const name = { name: item.original_filename };
  let picture: string;
  if (src && index >= DRAWN_TILES) picture = '';
  else if (src) picture = `<img alt="" loading="${index < EAGER_TILES ? 'eager' : 'lazy'}"${index === 0 ? ' fetchpriority="high"' : ''} decoding="async" src="${escapeHtml(src)}">`;
  else if (video) picture = '<span class="gallery-tile-placeholder"></span>';
  else picture = `<span class="gallery-tile-placeholder gallery-tile-unshowable" data-testid="unshowable">${icon(imageOff, 22)}<span>${t('gallery.unshowable')}</span></span>`;
  return (
    `<li><button type="button" class="gallery-tile${video ? ' gallery-tile-video' : ''}" aria-label="${t(video ? 'gallery.open_video' : 'gallery.open_photo', name)}">` +
    picture +
    (video ? `<span class="gallery-tile-play" aria-hidden="true">${icon(play, 22)}</span>` : '') +
    `</button><button type="button" class="heart " aria-pressed="${item.hearted}" aria-label="${t('gallery.heart', { count: item.hearts })}">${icon(heart, 18)}${item.hearts || ''}</button></li>`
  );
}

type IconModule = { __iconData: { name: string; node: [string, Record<string, string>][] } };

/** A Lucide icon as the client's `<Icon aria-hidden size>` renders it (the same paths, from the same package). */
function icon(module: unknown, size: number, className = ''): string {
  const { name, node } = (module as IconModule).__iconData;
  const parts = node.map(([tag, attrs]) => `<${tag}${Object.entries(attrs).map(([k, v]) => (k === 'key' ? '' : ` ${k}="${escapeHtml(String(v))}"`)).join('')}></${tag}>`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" ` +
    `stroke-linecap="round" stroke-linejoin="round" class="lucide lucide-${name}${className ? ' ' + className : ''}" aria-hidden="true">${parts.join('')}</svg>`
  );
}
