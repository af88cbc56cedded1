// Reading the PDFs the keepsakes make, as a test needs them: their objects, the images their pages
// draw and where each lands on its page.
import zlib from 'node:zlib';

export type PdfObjects = Map<number, { dict: string; stream: Buffer | null }>;

/** The PDF's objects: `n 0 obj ... endobj`, streams inflated. */
export function objects(pdf: Buffer): PdfObjects {
  const out: PdfObjects = new Map();
  const text = pdf.toString('latin1');
  for (const m of text.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = m[2];
    const at = body.indexOf('stream');
    let stream: Buffer | null = null;
    let dict = body;
    if (at >= 0) {
      dict = body.slice(0, at);
      const raw = Buffer.from(body.slice(at + 6).replace(/^\r?\n/, '').replace(/\r?\nendstream\s*$/, ''), 'latin1');
      stream = /FlateDecode/.test(dict) ? zlib.inflateSync(raw) : raw;
    }
    out.set(Number(m[1]), { dict, stream });
  }
  return out;
}

/** The images each page draws: their pixels (from the PDF's objects) and the size they are drawn at, in points. */
export async function drawnImages(objs: PdfObjects): Promise<{ w: number; h: number; drawnW: number; drawnH: number; stream: Buffer }[]> {
  const images = new Map<string, { w: number; h: number; stream: Buffer }>();
  for (const o of objs.values()) {
    const xo = /\/XObject\s*<<([^>]*)>>/.exec(o.dict);
    if (!xo) continue;
    for (const [, name, ref] of xo[1].matchAll(/\/(\w+) (\d+) 0 R/g)) {
      const img = objs.get(Number(ref))!;
      images.set(name, { w: Number(/\/Width (\d+)/.exec(img.dict)![1]), h: Number(/\/Height (\d+)/.exec(img.dict)![1]), stream: img.stream! });
    }
  }
  const out = [];
  for (const o of objs.values()) {
    const content = o.stream?.toString('latin1') ?? '';
    for (const [, a, d, name] of content.matchAll(/([\d.-]+) 0 0 ([\d.-]+) [\d.-]+ [\d.-]+ cm\s*\/(\w+) Do/g)) {
      const img = images.get(name);
      if (img) out.push({ ...img, drawnW: Math.abs(Number(a)), drawnH: Math.abs(Number(d)) });
    }
  }
  return out;
}


type Matrix = [number, number, number, number, number, number];
const times = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5],
];

export interface Placement {
  /** The image XObject's dictionary and its (undecoded) data. */
  dict: string;
  stream: Buffer;
  /** Where a point of the image lands on the page (PDF points, y up): u across its stored pixels from the left, v down from the top, both 0-1. */
  at(u: number, v: number): { x: number; y: number };
}

/** Every image each page draws, with the whole transform it is drawn with (the `q`/`Q` and `cm` before its `Do`). */
export function placements(objs: PdfObjects): Placement[] {
  const out: Placement[] = [];
  for (const o of objs.values()) {
    const contents = /\/Contents (\d+) 0 R/.exec(o.dict);
    const resources = /\/Resources (\d+) 0 R/.exec(o.dict);
    const xo = resources && /\/XObject\s*<<([^>]*)>>/.exec(objs.get(Number(resources[1]))?.dict ?? '');
    if (!xo || !contents) continue;
    const names = new Map([...xo[1].matchAll(/\/(\w+) (\d+) 0 R/g)].map(([, name, ref]) => [name, objs.get(Number(ref))!]));
    const ops = objs.get(Number(contents[1]))!.stream!.toString('latin1').split(/\s+/);
    let ctm: Matrix = [1, 0, 0, 1, 0, 0];
    const saved: Matrix[] = [];
    for (let i = 0; i < ops.length; i++) {
      if (ops[i] === 'q') saved.push(ctm);
      else if (ops[i] === 'Q') ctm = saved.pop() ?? ctm;
      else if (ops[i] === 'cm') ctm = times(ops.slice(i - 6, i).map(Number) as Matrix, ctm);
      else if (ops[i] === 'Do') {
        const img = names.get(ops[i - 1].slice(1));
        if (!img?.stream || !/\/Subtype \/Image/.test(img.dict)) continue;
        const m = ctm;
        out.push({ dict: img.dict, stream: img.stream, at: (u, v) => ({ x: m[0] * u + m[2] * (1 - v) + m[4], y: m[1] * u + m[3] * (1 - v) + m[5] }) });
      }
    }
  }
  return out;
}
