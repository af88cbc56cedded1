/**
 * What a reader of the page would find broken, measured in the browser (run it with
 * `page.evaluate(layoutProblems)`; it must stay self-contained, as Playwright sends its source):
 * - the page wider than the screen (a sideways scroll on a phone);
 * - text outside the screen, or cut off by a box that hides its overflow (one of its ancestors, or
 *   itself), where no "…" shows it: a name shortened with text-overflow: ellipsis is by design;
 * - text drawn over other text of the same layer (a toast or a dialog covering the page is not).
 * Text inside a box that scrolls (a table, a row of filter buttons, a long list) is judged by what
 * that box shows.
 * Returns one readable line per problem; an empty list when the page is sound.
 */
export function layoutProblems() {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width + 1) out.push(`the page is ${document.documentElement.scrollWidth}px wide on a ${width}px screen`);

  const describe = (el) => {
    const cls = typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).join('.') : '';
    return `<${el.tagName.toLowerCase()}${cls}>`;
  };
  const style = (el) => getComputedStyle(el);
  const clips = (s) => ['hidden', 'clip'].includes(s.overflowX) || ['hidden', 'clip'].includes(s.overflowY);
  const scrolls = (s) => ['auto', 'scroll'].includes(s.overflowX) || ['auto', 'scroll'].includes(s.overflowY);
  /** The nearest ancestor that lifts its content above the page (fixed or sticky), or the page. */
  const layerOf = (el) => {
    for (let e = el; e; e = e.parentElement) if (['fixed', 'sticky'].includes(style(e).position)) return e;
    return document.documentElement;
  };

  // Every visible piece of text, with the boxes its lines take.
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT),
  });
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest('.sr-only, script, style, noscript, option, [aria-hidden="true"]')) continue;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    if (rects.length) texts.push({ node: n, el, rects, layer: layerOf(el) });
  }

  const snippet = (t) => JSON.stringify(t.node.textContent.trim().slice(0, 40));
  const shown = [];
  for (const t of texts) {
    let cut = null;
    let scroller = null;
    for (let e = t.el; e && e !== document.documentElement && !scroller; e = e.parentElement) {
      const s = style(e);
      if (scrolls(s)) scroller = e;
      else if (clips(s) && s.textOverflow === 'ellipsis') {
        // The "…" shows where the text stops: what follows is the visible part.
        const box = e.getBoundingClientRect();
        t.rects = t.rects.map((r) => DOMRect.fromRect({ x: Math.max(r.left, box.left), y: r.top, width: Math.max(0, Math.min(r.right, box.right) - Math.max(r.left, box.left)), height: r.height }));
      } else if (clips(s) && !cut) {
        const box = e.getBoundingClientRect();
        if (t.rects.some((r) => r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1)) cut = e;
      }
    }
    if (cut) out.push(`${describe(t.el)} ${snippet(t)} is cut off by ${describe(cut)}`);
    if (scroller) {
      // A scrolling box shows what is inside it; text scrolled out of view is not cut off.
      const box = scroller.getBoundingClientRect();
      t.rects = t.rects.filter((r) => r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom);
      if (!t.rects.length) continue;
    } else if (!cut) {
      const r = t.rects.find((x) => x.left < -1 || x.right > width + 1);
      if (r) out.push(`${describe(t.el)} ${snippet(t)} is outside the screen (${Math.round(r.left)}..${Math.round(r.right)} of ${width})`);
    }
    shown.push(t);
  }

  // Text over text: two text runs of the same layer whose glyph boxes cross by more than a sliver
  // (a glyph box is taller than its line in scripts with tall marks, so a few pixels are allowed).
  for (let i = 0; i < shown.length; i++) {
    for (let j = i + 1; j < shown.length; j++) {
      const a = shown[i];
      const b = shown[j];
      if (a.layer !== b.layer) continue;
      const hit = a.rects.some((r) =>
        b.rects.some((q) => Math.min(r.right, q.right) - Math.max(r.left, q.left) > 2 && Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top) > 0.4 * Math.min(r.height, q.height)),
      );
      if (hit) out.push(`${describe(a.el)} ${snippet(a)} overlaps ${describe(b.el)} ${snippet(b)}`);
    }
  }
  return out;
}
