/**
 * The frames a photo taken in the page or the booth may carry (common/frames.ts lists them): each
 * drawn on a canvas around the photo in the wedding's theme (its colours and fonts, read from the
 * page) with the couple's names and the date.
 */

export interface FrameLook {
  surface: string;
  text: string;
  accent: string;
  gold: string;
  serif: string;
  sans: string;
}

/** The theme's colours and fonts as the page has them (server/settings/page-head.ts writes them). */
export function pageLook(): FrameLook {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    surface: v('--surface', '#fffdf9'),
    text: v('--text', '#2b2a28'),
    accent: v('--accent-strong', '#5b7a5a'),
    gold: v('--gold', '#b8944f'),
    serif: v('--font-serif', 'Georgia, serif'),
    sans: v('--font-sans', 'system-ui, sans-serif'),
  };
}

export interface FrameText {
  /** The couple's names as the page writes them ("Emma and James"). */
  names: string;
  /** The date, written in the page's language. */
  date: string;
}

type Image = CanvasImageSource & { width: number; height: number };

function canvasOf(w: number, h: number, fill: string): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const c = document.createElement('canvas');
  c.width = Math.round(w);
  c.height = Math.round(h);
  const g = c.getContext('2d')!;
  g.fillStyle = fill;
  g.fillRect(0, 0, c.width, c.height);
  return [c, g];
}

/** Writes `text` centred at (x, y), shrunk until it fits `maxWidth`. */
function centred(g: CanvasRenderingContext2D, text: string, x: number, y: number, size: number, font: string, color: string, maxWidth: number): void {
  let s = size;
  do {
    g.font = `${s}px ${font}`;
    s *= 0.92;
  } while (g.measureText(text).width > maxWidth && s > 6);
  g.fillStyle = color;
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, x, y);
}

function leaf(g: CanvasRenderingContext2D, x: number, y: number, len: number, angle: number, color: string): void {
  g.save();
  g.translate(x, y);
  g.rotate(angle);
  g.fillStyle = color;
  g.beginPath();
  g.ellipse(len / 2, 0, len / 2, len / 5, 0, 0, Math.PI * 2);
  g.fill();
  g.restore();
}

/** A sprig of leaves with a small flower, drawn from a corner inwards. */
function sprig(g: CanvasRenderingContext2D, x: number, y: number, size: number, dirX: number, dirY: number, look: FrameLook): void {
  const base = Math.atan2(dirY, dirX);
  for (let i = 0; i < 5; i++) {
    const t = i / 4;
    const px = x + dirX * size * t * 0.9;
    const py = y + dirY * size * t * 0.9;
    leaf(g, px, py, size * 0.32, base - 0.9 + (i % 2) * 1.8, i % 2 ? look.accent : look.gold);
  }
  g.fillStyle = look.gold;
  g.beginPath();
  g.arc(x + dirX * size * 0.15, y + dirY * size * 0.15, size * 0.09, 0, Math.PI * 2);
  g.fill();
}

/** `img` inside frame `id` (classic, polaroid, film or garden); the photo keeps its own pixels and size. */
export function drawFramed(img: Image, id: string, text: FrameText, look: FrameLook): HTMLCanvasElement {
  const w = img.width;
  const h = img.height;
  const s = Math.min(w, h);
  switch (id) {
    case 'polaroid': {
      const side = s * 0.05;
      const bottom = s * 0.24;
      const [c, g] = canvasOf(w + side * 2, h + side + bottom, '#fbfaf6');
      g.drawImage(img, side, side, w, h);
      centred(g, text.names, c.width / 2, h + side + bottom * 0.42, bottom * 0.34, look.serif, look.text, c.width - side * 4);
      centred(g, text.date, c.width / 2, h + side + bottom * 0.76, bottom * 0.15, look.sans, look.accent, c.width - side * 4);
      return c;
    }
    case 'film': {
      const band = s * 0.1;
      const bottom = band * 1.8;
      const [c, g] = canvasOf(w + band * 0.5, h + band + bottom, '#111');
      g.drawImage(img, band * 0.25, band, w, h);
      const hole = band * 0.4;
      g.fillStyle = '#e9e4d8';
      for (let x = band * 0.3; x + hole < c.width; x += hole * 2) {
        for (const y of [band * 0.3, c.height - band * 0.3 - hole * 0.7]) {
          g.beginPath();
          g.roundRect(x, y, hole, hole * 0.7, hole * 0.15);
          g.fill();
        }
      }
      // The date stamped in the photo's corner, as film cameras did.
      g.font = `bold ${Math.round(s * 0.045)}px ui-monospace, monospace`;
      g.fillStyle = '#ff8a1d';
      g.textAlign = 'right';
      g.textBaseline = 'bottom';
      g.fillText(text.date, band * 0.25 + w - s * 0.03, band + h - s * 0.03);
      centred(g, text.names, c.width / 2, band + h + bottom * 0.38, bottom * 0.3, look.sans, '#e9e4d8', c.width - band);
      return c;
    }
    case 'garden': {
      const border = s * 0.09;
      const bottom = s * 0.2;
      const [c, g] = canvasOf(w + border * 2, h + border + bottom, look.surface);
      g.drawImage(img, border, border, w, h);
      const size = border * 2.2;
      sprig(g, border * 0.5, border * 0.5, size, 1, 0.35, look);
      sprig(g, c.width - border * 0.5, border * 0.5, size, -1, 0.35, look);
      sprig(g, border * 0.5, h + border * 0.6, size, 1, -0.2, look);
      sprig(g, c.width - border * 0.5, h + border * 0.6, size, -1, -0.2, look);
      centred(g, text.names, c.width / 2, h + border + bottom * 0.42, bottom * 0.36, look.serif, look.accent, c.width - size * 2.2);
      centred(g, text.date, c.width / 2, h + border + bottom * 0.78, bottom * 0.16, look.sans, look.text, c.width - size * 2.2);
      return c;
    }
    default: {
      // classic: a fine double line around the photo, the names and the date below.
      const border = s * 0.06;
      const bottom = s * 0.18;
      const [c, g] = canvasOf(w + border * 2, h + border + bottom, look.surface);
      g.drawImage(img, border, border, w, h);
      g.strokeStyle = look.accent;
      for (const [inset, width] of [
        [border * 0.3, Math.max(1, s * 0.004)],
        [border * 0.5, Math.max(1, s * 0.0015)],
      ]) {
        g.lineWidth = width;
        g.strokeRect(inset, inset, c.width - inset * 2, c.height - inset * 2);
      }
      centred(g, text.names, c.width / 2, h + border + bottom * 0.42, bottom * 0.34, look.serif, look.text, c.width - border * 2);
      centred(g, text.date, c.width / 2, h + border + bottom * 0.76, bottom * 0.15, look.sans, look.accent, c.width - border * 2);
      return c;
    }
  }
}
