// bench:keepsakes' photo book side: what a PDF holds (pages, and each photo's pixels), and the
// baseline: PDFKit alone putting the same original files in as they are (its own JPEG reader)
// onto as many pages, one photo at a time as the book does. Run as a process of its own (so it runs at the
// media worker's priority): node --import tsx keepsakes-book.ts '<json>' prints a JSON answer.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import { PAPER_POINTS, PRINT_DPI } from '../../server/keepsakes/book.js';
import type { Paper } from '../../common/keepsake-types.js';

export interface PdfFacts {
  pages: number;
  /** Each image's pixels, in the order the file holds them. */
  images: { width: number; height: number }[];
}

/** Counts a PDF's pages and reads its images' sizes (PDFKit's objects: `/Subtype /Image ... /Width w /Height h`). */
export function pdfFacts(file: string): PdfFacts {
  const pdf = fs.readFileSync(file);
  const count = (needle: string, each: (at: number) => void) => {
    for (let at = pdf.indexOf(needle); at >= 0; at = pdf.indexOf(needle, at + needle.length)) each(at);
  };
  let pages = 0;
  count('/Type /Page\n', () => pages++);
  const images: PdfFacts['images'] = [];
  count('/Subtype /Image', (at) => {
    const dict = pdf.subarray(at, at + 200).toString('latin1');
    const width = Number(/\/Width (\d+)/.exec(dict)?.[1]);
    const height = Number(/\/Height (\d+)/.exec(dict)?.[1]);
    if (width && height) images.push({ width, height });
  });
  return { pages, images };
}

export interface AloneJob {
  facts: PdfFacts;
  /** The photos to draw from, taken in turn. */
  sources: string[];
  paper: Paper;
  output: string;
}

export interface AloneAnswer {
  seconds: number;
  /** CPU seconds of the process (sharp's threads included). */
  cpu: number;
  peakRss: number;
}

/** The baseline: each original read and handed to PDFKit as it is, drawn at PRINT_DPI of the size the book gave its image. */
async function alone(job: AloneJob): Promise<AloneAnswer> {
  const [W, H] = PAPER_POINTS[job.paper];
  const t = performance.now();
  const c = process.cpuUsage();
  const doc = new PDFDocument({ size: [W, H], autoFirstPage: false, compress: true });
  const out = fs.createWriteStream(job.output);
  const written = new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
  doc.pipe(out);
  const { pages, images } = job.facts;
  let page = -1;
  for (let i = 0; i < images.length; i++) {
    // As many pages as the book, the images spread over them in order.
    for (const p = Math.floor((i * pages) / images.length); page < p; page++) doc.addPage({ size: [W, H], margin: 0 });
    const { width, height } = images[i];
    const original = await fsp.readFile(job.sources[i % job.sources.length]);
    doc.image(original, 20, 20, { width: (width / PRINT_DPI) * 72, height: (height / PRINT_DPI) * 72 });
  }
  for (; page < pages - 1; page++) doc.addPage({ size: [W, H], margin: 0 });
  doc.end();
  await written;
  const used = process.cpuUsage(c);
  return { seconds: (performance.now() - t) / 1000, cpu: (used.user + used.system) / 1e6, peakRss: process.resourceUsage().maxRSS * 1024 };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  alone(JSON.parse(process.argv[2]) as AloneJob).then(
    (answer) => console.log(JSON.stringify(answer)),
    (e) => {
      console.error(e);
      process.exit(1);
    },
  );
}
