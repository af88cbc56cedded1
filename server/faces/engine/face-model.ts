import { createRequire } from 'node:module';
import path from 'node:path';
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import type { Box } from './boxes.js';
import { detectorOutputs, suppress } from './fused-detector.js';

// The adapter around @vladmandic/face-api on TensorFlow.js' WebAssembly backend: the only file
// that imports them. It runs in the face worker (server/face-worker.ts), never in the server.
// face-api re-exports the very tfjs instance it runs on as `faceapi.tf` (with the wasm backend's
// setWasmPaths), so everything here goes through that one instance.
const tf = faceapi.tf as unknown as typeof import('@tensorflow/tfjs') & { setWasmPaths(prefix: string, usePlatformFetch?: boolean): void };
const require = createRequire(import.meta.url);

/** A decoded picture: 8-bit RGB, row by row. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A detection in the pixels of the picture it was made on. */
export interface Detection extends Box {
  score: number;
}

/** The detector's own input: every picture or tile is scaled or padded to this square. */
export const DETECTOR_PX = 512;
/** Lowest detector score kept. 0.4 measured no false faces on the group photos and kept the small ones. */
const MIN_SCORE = 0.4;
const MAX_FACES = 200;
const detectorOptions = new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_SCORE, maxResults: MAX_FACES });

let loaded: Promise<void> | undefined;

/**
 * Loads the wasm backend and the three networks from the installed packages' own files: weights
 * from face-api's model/ folder, the .wasm binaries from tfjs-backend-wasm's dist/ (Node's fetch
 * cannot read file://, so both are read from disk).
 */
export function loadModels(): Promise<void> {
  loaded ??= (async () => {
    const wasmDir = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist') + path.sep;
    tf.setWasmPaths(wasmDir);
    await tf.setBackend('wasm');
    await tf.ready();
    tf.enableProdMode();
    const models = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(models);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(models);
    await faceapi.nets.faceRecognitionNet.loadFromDisk(models);
  })();
  return loaded;
}

/**
 * SSD MobileNet v1 on one square of at most DETECTOR_PX: the picture (or tile) goes in at its own
 * scale, padded at the right and bottom, so a face keeps every pixel it has. The network runs as
 * fused layers (fused-detector.ts); `reference` runs face-api's own forward pass instead (the
 * benchmarks' baseline and the test that both agree).
 */
export async function detectSquare(img: RgbImage, reference = false): Promise<Detection[]> {
  const input = tf.tidy(() => {
    const t = tf.tensor3d(img.data, [img.height, img.width, 3], 'int32');
    return tf.pad(t, [[0, DETECTOR_PX - img.height], [0, DETECTOR_PX - img.width], [0, 0]]) as import('@tensorflow/tfjs').Tensor3D;
  });
  try {
    if (reference) {
      const found = await faceapi.nets.ssdMobilenetv1.locateFaces(input as never, detectorOptions);
      return found.map((d) => ({ x: d.box.x, y: d.box.y, width: d.box.width, height: d.box.height, score: d.score }));
    }
    const out = detectorOutputs(input);
    const [boxes, scores] = await Promise.all([out.boxes.data() as Promise<Float32Array>, out.scores.data() as Promise<Float32Array>]).finally(() => {
      out.boxes.dispose();
      out.scores.dispose();
    });
    return suppress(boxes, scores, MAX_FACES, 0.5, MIN_SCORE).map((i) => {
      // (top, left, bottom, right) relative to the square, clipped to it as face-api clips them.
      const top = Math.max(0, boxes[4 * i]) * DETECTOR_PX;
      const left = Math.max(0, boxes[4 * i + 1]) * DETECTOR_PX;
      const bottom = Math.min(1, boxes[4 * i + 2]) * DETECTOR_PX;
      const right = Math.min(1, boxes[4 * i + 3]) * DETECTOR_PX;
      return { x: left, y: top, width: right - left, height: bottom - top, score: scores[i] };
    });
  } finally {
    input.dispose();
  }
}

/** The pixels of `img` in a rectangle that lies inside it. */
export function cutOut(img: RgbImage, r: { x: number; y: number; width: number; height: number }): RgbImage {
  if (r.x === 0 && r.y === 0 && r.width === img.width && r.height === img.height) return img;
  const data = new Uint8Array(r.width * r.height * 3);
  for (let row = 0; row < r.height; row++) {
    const from = ((r.y + row) * img.width + r.x) * 3;
    data.set(img.data.subarray(from, from + r.width * 3), row * r.width * 3);
  }
  return { data, width: r.width, height: r.height };
}

/**
 * The part of `img` inside `box` (clipped to the picture), as a small tensor. Cut in JavaScript:
 * a tensor of the whole picture would be 33 MB of the WebAssembly heap, which never shrinks.
 */
function crop(img: RgbImage, box: Box) {
  const x = Math.max(0, Math.floor(box.x));
  const y = Math.max(0, Math.floor(box.y));
  const width = Math.min(img.width - x, Math.ceil(box.width));
  const height = Math.min(img.height - y, Math.ceil(box.height));
  if (width < 4 || height < 4) return undefined;
  const part = cutOut(img, { x, y, width, height });
  return { tensor: tf.tensor3d(part.data, [height, width, 3], 'int32'), x, y };
}

/**
 * The 128-number face code of each box, the way face-api's own pipeline makes it (68 landmarks in
 * the box, then dlib's alignment of eyes and mouth, then the ResNet on that square), but cropping
 * each face out of the decoded picture. A box too small or at the edge gives null.
 */
export async function describe(img: RgbImage, boxes: Box[]): Promise<(Float32Array | null)[]> {
  const out: (Float32Array | null)[] = [];
  for (const box of boxes) {
    const face = crop(img, box);
    if (!face) {
      out.push(null);
      continue;
    }
    let landmarks;
    try {
      landmarks = (await faceapi.nets.faceLandmark68Net.detectLandmarks(face.tensor as never)) as faceapi.FaceLandmarks68;
    } finally {
      face.tensor.dispose();
    }
    const aligned = landmarks.shiftBy<faceapi.FaceLandmarks68>(face.x, face.y).align(null, { useDlibAlignment: true });
    const chip = crop(img, aligned);
    if (!chip) {
      out.push(null);
      continue;
    }
    try {
      out.push((await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(chip.tensor as never)) as Float32Array);
    } finally {
      chip.tensor.dispose();
    }
  }
  return out;
}
