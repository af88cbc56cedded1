/** The gallery's page of photos (SPEC §9: 20 items). */
export const GALLERY_PAGE_SIZE = 20;

/**
 * The address of the gallery's first page as the page asks for it; on `/gallery` the server
 * writes its answer into the HTML with the tiles (server/http/gallery-html.ts).
 */
export const GALLERY_FIRST_PAGE = `/api/photos?limit=${GALLERY_PAGE_SIZE}&offset=0`;

/**
 * Tiles whose thumbnails load at once, at high priority, rather than lazily (the others in view
 * start as soon as the page is laid out). One: on a phone's slow link every thumbnail asked for at
 * once shares it, so three at once painted the first about 0.7 s later than one alone
 * (bench:first-paint, docs/benchmarks.md).
 */
export const EAGER_TILES = 1;

/** The plain gallery: an address that names a filter or an order asks for other photos. */
export const isPlainGallery = (pagePath: string, query: string): boolean =>
  pagePath === '/gallery' && !/(^|&)(moment|sort|highlights|challenge|table|only)=/.test(query);
