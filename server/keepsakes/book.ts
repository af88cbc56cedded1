import fs from 'node:fs';
import fsp from 'node:fs/promises';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { runs, type KeepsakeFace } from './fonts.js';
import { jpegAsIs, type JpegAsIs } from './jpeg-as-is.js';
import type { Paper } from '../../common/keepsake-types.js';
import type { BookPlan, KeepsakeOutcome, MakeControl, PlanItem } from '../processing/keepsake-plan.js';

/** Points (1/72 in) of each paper: A4, US letter, and an 8.5-inch square. */
export const PAPER_POINTS: Record<Paper, [number, number]> = { A4: [595.28, 841.89], letter: [612, 792], square: [612, 612] };
/** Every photo gets this many pixels an inch of its printed size, where its original has them. */
export const PRINT_DPI = 300;
const MARGIN = 42;
const GAP = 14;
const CAPTION = 13;

type Doc = PDFKit.PDFDocument;
type Box = { x: number; y: number; w: number; h: number };

const shape = (p: PlanItem) => (p.width > p.height * 1.1 ? 'landscape' : p.height > p.width * 1.1 ? 'portrait' : 'square');

/** Writes `text` in the face's files, each run in the file that holds its letters. */
function write(doc: Doc, face: KeepsakeFace, size: number, text: string, x: number | undefined, y: number | undefined, o: PDFKit.Mixins.TextOptions = {}): void {
  const parts = runs(face, text);
  if (!parts.length) return;
  doc.fontSize(size);
  parts.forEach((run, i) => {
    doc.font(run.file);
    const more = i < parts.length - 1;
    if (i === 0 && x !== undefined && y !== undefined) doc.text(run.text, x, y, { ...o, continued: more });
    else doc.text(run.text, { ...o, continued: more });
  });
}

/** PDFKit's image object, which the book opens itself to give it the orientation and colours it read. */
type PdfJpeg = { width: number; height: number; orientation: number; colorSpace: unknown };

/**
 * Draws a photo in its printed box. A JPEG original goes in as it is (its pixels, at least
 * PRINT_DPI at that size where it has them, undecoded: see jpeg-as-is.ts), turned by its
 * orientation and named in its colour profile; anything else is made by `printable`.
 */
async function drawPhoto(doc: Doc, p: PlanItem, at: Box, profiles: Map<string, PDFKit.PDFKitReference>): Promise<void> {
  const bytes = await fsp.readFile(p.file).catch(() => null);
  const asIs = bytes && jpegAsIs(bytes);
  if (asIs && fitsItsRecord(asIs, p)) {
    const img = (doc as unknown as { openImage(src: Buffer): PdfJpeg }).openImage(asIs.data);
    img.orientation = asIs.orientation;
    if (asIs.icc) img.colorSpace = ['ICCBased', profileRef(doc, asIs.icc, asIs.components, profiles)];
    doc.image(img as unknown as Buffer, at.x, at.y, { width: at.w, height: at.h });
    return;
  }
  doc.image(await printable(p, at.w, at.h, bytes), at.x, at.y, { width: at.w, height: at.h });
}

/** The file, turned by its orientation, has the shape the photo's record says (else it is not the picture the site shows). */
function fitsItsRecord(j: JpegAsIs, p: PlanItem): boolean {
  const [w, h] = j.orientation >= 5 ? [j.height, j.width] : [j.width, j.height];
  return Math.abs(w / h - p.width / p.height) <= 0.02 * (p.width / p.height);
}

/** One ICC profile stream for each distinct profile in the book (most photos share a few). */
function profileRef(doc: Doc, icc: Buffer, components: number, profiles: Map<string, PDFKit.PDFKitReference>): PDFKit.PDFKitReference {
  const key = icc.toString('base64');
  let ref = profiles.get(key);
  if (!ref) {
    ref = doc.ref({ N: components, Alternate: components === 1 ? 'DeviceGray' : 'DeviceRGB' });
    ref.end(icc);
    profiles.set(key, ref);
  }
  return ref;
}

/**
 * The pixels a photo gets for a printed box of `w` x `h` points when it cannot go in as it is:
 * exactly PRINT_DPI at that size, from the original (turned as displayed), or all it has when it has fewer.
 */
async function printable(p: PlanItem, w: number, h: number, read: Buffer | null): Promise<Buffer> {
  const want = { width: Math.round((w / 72) * PRINT_DPI), height: Math.round((h / 72) * PRINT_DPI) };
  // The original's bytes, already read for `jpegAsIs`, are not read again.
  const render = async (file: string | Buffer) => {
    const img = sharp(file, { failOn: 'none', limitInputPixels: 268_402_689 }).rotate();
    const meta = await sharp(file, { failOn: 'none' }).metadata();
    const turned = (meta.orientation ?? 1) >= 5;
    const have = { width: (turned ? meta.height : meta.width) ?? 0, height: (turned ? meta.width : meta.height) ?? 0 };
    const size = have.width >= want.width && have.height >= want.height ? want : fitInside(have, want);
    return img.resize(size.width, size.height, { fit: 'fill' }).flatten({ background: '#ffffff' }).jpeg({ quality: 90, chromaSubsampling: '4:4:4' }).toBuffer();
  };
  try {
    return await render(read ?? p.file);
  } catch (e) {
    if (!p.fallback) throw e;
    return render(p.fallback);
  }
}

/** The largest size of `want`'s shape that `have` holds (no photo is ever made larger than it is). */
function fitInside(have: { width: number; height: number }, want: { width: number; height: number }) {
  const k = Math.min(have.width / want.width, have.height / want.height);
  return { width: Math.max(1, Math.floor(want.width * k)), height: Math.max(1, Math.floor(want.height * k)) };
}

/** The photo's printed box inside a cell: its own shape, as large as fits, centred, room left for its byline. */
function placeIn(p: PlanItem, cell: Box, caption: boolean): Box {
  const room = { ...cell, h: cell.h - (caption ? CAPTION + 4 : 0) };
  const k = Math.min(room.w / p.width, room.h / p.height);
  const w = p.width * k;
  const h = p.height * k;
  return { x: room.x + (room.w - w) / 2, y: room.y + (room.h - h) / 2, w, h };
}

/** The next page's photos (one to four) and their cells, chosen by the photos' shapes. */
function nextPage(items: PlanItem[], from: number, area: Box, pageNo: number): { count: number; cells: Box[] } {
  const left = items.length - from;
  const s = items.slice(from, from + 4).map(shape);
  const tall = area.h > area.w * 1.15;
  const half = (dir: 'rows' | 'cols'): Box[] =>
    dir === 'rows'
      ? [{ ...area, h: (area.h - GAP) / 2 }, { ...area, y: area.y + (area.h + GAP) / 2, h: (area.h - GAP) / 2 }]
      : [{ ...area, w: (area.w - GAP) / 2 }, { ...area, x: area.x + (area.w + GAP) / 2, w: (area.w - GAP) / 2 }];
  const grid = (): Box[] => {
    const w = (area.w - GAP) / 2;
    const h = (area.h - GAP) / 2;
    return [0, 1, 2, 3].map((i) => ({ x: area.x + (i % 2) * (w + GAP), y: area.y + Math.floor(i / 2) * (h + GAP), w, h }));
  };
  const rhythm = pageNo % 3;
  if (rhythm === 2 && left >= 4) return { count: 4, cells: grid() };
  if (rhythm !== 0 && left >= 2) {
    if (s[0] === 'landscape' && s[1] !== 'portrait') return { count: 2, cells: half(tall ? 'rows' : 'rows') };
    if (s[0] !== 'landscape' && s[1] !== 'landscape') return { count: 2, cells: half(tall && s[0] === 'square' ? 'rows' : 'cols') };
  }
  if (left >= 4 && rhythm === 0 && s.every((x) => x === s[0]) && from + 4 <= items.length && items.length - from > 8) return { count: 4, cells: grid() };
  return { count: 1, cells: [area] };
}

/** Waits while more than 32 MiB of the PDF is made but not yet on disk (originals go in faster than a disk may write them). */
async function flowed(doc: Doc, out: fs.WriteStream): Promise<void> {
  while (doc.readableLength + out.writableLength > 32 * 2 ** 20 && !out.destroyed) {
    await new Promise<void>((resolve) => {
      const done = () => (clearTimeout(timer), out.off('drain', done), resolve());
      const timer = setTimeout(done, 50);
      out.once('drain', done);
    });
  }
}

async function qrJpeg(url: string): Promise<Buffer> {
  const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 2;
  const scale = 12;
  const side = (n + quiet * 2) * scale;
  const px = Buffer.alloc(side * side, 255);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (!qr.modules.get(r, c)) continue;
      for (let y = 0; y < scale; y++) px.fill(0, ((r + quiet) * scale + y) * side + (c + quiet) * scale, ((r + quiet) * scale + y) * side + (c + quiet + 1) * scale);
    }
  }
  return sharp(px, { raw: { width: side, height: side, channels: 1 } }).jpeg({ quality: 95 }).toBuffer();
}

/**
 * The photo book: a cover (the cover photo, names, date), a chapter per moment with one to four
 * photos a page laid out by their shapes and "by {name}" beside each, and the guestbook with a
 * QR code beside each voice note. Fonts are the theme's, embedded (subset); every photo is sized
 * to PRINT_DPI at its printed size. Written to disk as it is made; photos are read one at a time.
 */
export async function makeBook(plan: BookPlan, ctl: MakeControl): Promise<KeepsakeOutcome> {
  const [W, H] = PAPER_POINTS[plan.paper];
  const { serif, sans } = plan.fonts;
  const doc = new PDFDocument({ size: [W, H], margin: MARGIN, autoFirstPage: false, info: { Title: plan.title, Author: plan.names, Creator: 'wedding-photos' }, compress: true, pdfVersion: '1.7' });
  const part = `${plan.output}.part`;
  const out = fs.createWriteStream(part);
  const written = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
  });
  doc.pipe(out);
  const profiles = new Map<string, PDFKit.PDFKitReference>();
  let pages = 0;
  const addPage = () => {
    doc.addPage({ size: [W, H], margin: MARGIN });
    pages++;
  };
  const total = plan.items.length + plan.messages.length / 4 + 2;
  let done = 0;
  const step = async (n = 1) => {
    done += n;
    await flowed(doc, out);
    ctl.progress(Math.min(99, Math.floor((done / total) * 100)));
    await ctl.turn();
    ctl.signal?.throwIfAborted();
  };
  try {
    // Cover.
    addPage();
    doc.rect(0, 0, W, H).fill(plan.colours.bg);
    let textTop = H * 0.62;
    if (plan.cover) {
      const box = { x: MARGIN, y: MARGIN, w: W - 2 * MARGIN, h: H * 0.55 - MARGIN };
      let file = plan.cover;
      let meta = await sharp(file).metadata().catch(() => null);
      if (!meta?.width && plan.coverFallback) meta = await sharp((file = plan.coverFallback)).metadata().catch(() => null);
      if (meta?.width && meta.height) {
        const turned = (meta.orientation ?? 1) >= 5;
        const item: PlanItem = { id: 'cover', video: false, file, fallback: file === plan.cover ? (plan.coverFallback ?? null) : null, width: turned ? meta.height : meta.width, height: turned ? meta.width : meta.height, duration: null, byline: null, moment: -1, at: 0 };
        const at = placeIn(item, box, false);
        await drawPhoto(doc, item, at, profiles);
        textTop = at.y + at.h + 28;
      }
    }
    doc.fillColor(plan.colours.text);
    write(doc, serif, 34, plan.names, MARGIN, textTop, { width: W - 2 * MARGIN, align: 'center' });
    if (plan.date) write(doc, sans, 13, plan.date, MARGIN, doc.y + 8, { width: W - 2 * MARGIN, align: 'center' });
    if (plan.title && plan.title !== plan.names) write(doc, serif, 16, plan.title, MARGIN, doc.y + 10, { width: W - 2 * MARGIN, align: 'center' });
    await step();

    // A chapter per moment, in the order of the day.
    for (let m = 0; m < plan.moments.length; m++) {
      const items = plan.items.filter((p) => p.moment === m && !p.video);
      if (!items.length) continue;
      addPage();
      doc.fillColor(plan.colours.accent);
      write(doc, serif, 30, plan.moments[m], MARGIN, H * 0.4, { width: W - 2 * MARGIN, align: 'center' });
      doc.moveTo(W / 2 - 40, doc.y + 12).lineTo(W / 2 + 40, doc.y + 12).lineWidth(0.8).stroke(plan.colours.accent);
      let pageNo = 0;
      for (let i = 0; i < items.length; ) {
        addPage();
        const area = { x: MARGIN, y: MARGIN, w: W - 2 * MARGIN, h: H - 2 * MARGIN };
        const { count, cells } = nextPage(items, i, area, pageNo++);
        for (let k = 0; k < count; k++) {
          const p = items[i + k];
          const at = placeIn(p, cells[k], true);
          await drawPhoto(doc, p, at, profiles);
          if (p.byline) {
            doc.fillColor(plan.colours.text);
            write(doc, sans, 8.5, p.byline, at.x, at.y + at.h + 3, { width: at.w, align: 'right', lineBreak: false, height: CAPTION });
          }
          await step();
        }
        i += count;
      }
    }

    // The guestbook: each message with its name and time, a QR code beside a voice note.
    if (plan.messages.length) {
      addPage();
      doc.fillColor(plan.colours.accent);
      write(doc, serif, 28, plan.texts.guestbook, MARGIN, MARGIN, { width: W - 2 * MARGIN, align: 'center' });
      let y = doc.y + 18;
      const qrSize = 72;
      for (const m of plan.messages) {
        const textW = W - 2 * MARGIN - (m.voiceUrl ? qrSize + GAP : 0);
        doc.font(sans.files[0]?.file ?? 'Helvetica').fontSize(11);
        const needed = Math.max(doc.heightOfString(m.text, { width: textW }) + 30, m.voiceUrl ? qrSize + 14 : 0);
        if (y + needed > H - MARGIN) {
          addPage();
          y = MARGIN;
        }
        doc.fillColor(plan.colours.text);
        write(doc, sans, 11, m.text, MARGIN, y, { width: textW });
        doc.fillColor(plan.colours.accent);
        write(doc, serif, 12, `${m.name} · ${m.when}`, MARGIN, doc.y + 4, { width: textW });
        let bottom = doc.y;
        if (m.voiceUrl) {
          const x = W - MARGIN - qrSize;
          doc.image(await qrJpeg(m.voiceUrl), x, y, { width: qrSize, height: qrSize });
          doc.fillColor(plan.colours.text);
          write(doc, sans, 7, plan.texts.scanToListen, x - 10, y + qrSize + 2, { width: qrSize + 20, align: 'center', lineBreak: false });
          bottom = Math.max(bottom, y + qrSize + 12);
        }
        y = bottom + 18;
        await step(0.25);
      }
    }
    doc.end();
    await written;
    await fsp.rename(part, plan.output);
    ctl.progress(100);
    return { bytes: (await fsp.stat(plan.output)).size, pages };
  } catch (e) {
    out.destroy();
    await fsp.rm(part, { force: true });
    throw e;
  }
}
