import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import type * as TF from '@tensorflow/tfjs';

// SSD MobileNet v1 (face-api's face detector) with the same weights, run as fused layers: each
// batch normalisation is folded into its convolution's filters and bias once, at load, and every
// convolution runs with its bias and its ReLU6 in one WebAssembly call (XNNPACK) instead of
// three to five passes over the layer's output. face-api's own forward pass stays the reference:
// test/server/faces-detector.test.ts checks both give the same boxes and scores.
const tf = faceapi.tf as unknown as typeof TF;

const EPSILON = 0.0010000000474974513;

interface Fused {
  filter: TF.Tensor4D;
  bias: TF.Tensor1D;
}

interface Layers {
  first: Fused;
  pairs: { depthwise: Fused; pointwise: Fused }[];
  extra: Fused[];
  boxes: { encoding: Fused; classes: Fused }[];
  anchors: TF.Tensor2D;
}

let layers: Layers | undefined;

/* eslint-disable @typescript-eslint/no-explicit-any -- face-api's parameter tree is typed loosely */
/** face-api's own tensors, shared (not copied): only batch normalisations need new ones. */
function pointwise(p: any): Fused {
  return { filter: p.filters, bias: p.batch_norm_offset };
}

/** (conv(x, f) - mean) * scale / sqrt(var + eps) + offset = conv(x, f * k) + (offset - mean * k). */
function depthwise(p: any): Fused {
  return tf.tidy(() => {
    const k = tf.div(p.batch_norm_scale, tf.sqrt(tf.add(p.batch_norm_variance, EPSILON))) as TF.Tensor1D;
    const filter = tf.mul(p.filters, tf.reshape(k, [1, 1, -1, 1])) as TF.Tensor4D;
    const bias = tf.sub(p.batch_norm_offset, tf.mul(p.batch_norm_mean, k)) as TF.Tensor1D;
    return { filter, bias };
  });
}

function plain(p: any): Fused {
  return { filter: p.filters, bias: p.bias };
}

function prepare(): Layers {
  const params = (faceapi.nets.ssdMobilenetv1 as any).params;
  if (!params) throw new Error('The face detector is not loaded');
  const m = params.mobilenetv1;
  const pairs = Array.from({ length: 13 }, (_, i) => ({ depthwise: depthwise(m[`conv_${i + 1}`].depthwise_conv), pointwise: pointwise(m[`conv_${i + 1}`].pointwise_conv) }));
  const pl = params.prediction_layer;
  return {
    first: pointwise(m.conv_0),
    pairs,
    extra: Array.from({ length: 8 }, (_, i) => pointwise(pl[`conv_${i}`])),
    boxes: Array.from({ length: 6 }, (_, i) => ({ encoding: plain(pl[`box_predictor_${i}`].box_encoding_predictor), classes: plain(pl[`box_predictor_${i}`].class_predictor) })),
    anchors: tf.reshape(params.output_layer.extra_dim, [-1, 4]) as TF.Tensor2D,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const conv = (x: TF.Tensor4D, l: Fused, stride: number, relu6 = true) =>
  tf.fused.conv2d({ x, filter: l.filter, strides: stride, pad: 'same', bias: l.bias, activation: relu6 ? 'relu6' : 'linear' });
const dwConv = (x: TF.Tensor4D, l: Fused, stride: number) =>
  tf.fused.depthwiseConv2d({ x, filter: l.filter, strides: stride, pad: 'same', bias: l.bias, activation: 'relu6' });

const STRIDE_TWO = new Set([2, 4, 6, 12]);

export interface SquareDetection {
  /** Relative to the 512 px square: top, left, bottom, right. */
  top: number;
  left: number;
  bottom: number;
  right: number;
  score: number;
}

/**
 * Boxes and scores of every anchor for one 512 x 512 RGB square (int32 or float), decoded the way
 * face-api's output layer decodes them. Non-maximum suppression is the caller's.
 *
 * Each layer's output is freed as soon as the next layer has read it (face-api keeps them all
 * until the end of its pass): the WebAssembly heap only ever grows, so its size is set by the
 * most that is alive at once, about 25 MB here instead of about 100.
 */
export function detectorOutputs(square: TF.Tensor3D): { boxes: TF.Tensor2D; scores: TF.Tensor1D } {
  layers ??= prepare();
  const L = layers;
  /** `next` computed from `t`, then `t` freed (unless it is still wanted). */
  const then = <T extends TF.Tensor>(t: TF.Tensor, next: () => T, keep = false): T => {
    const out = tf.tidy(next);
    if (!keep) t.dispose();
    return out;
  };
  const heads: { encoding: TF.Tensor2D; classes: TF.Tensor2D }[] = [];
  const head = (source: TF.Tensor4D) => {
    const i = heads.length;
    heads.push(
      tf.tidy(() => ({
        encoding: tf.reshape(conv(source, L.boxes[i].encoding, 1, false), [-1, 4]) as TF.Tensor2D,
        classes: tf.reshape(conv(source, L.boxes[i].classes, 1, false), [-1, 3]) as TF.Tensor2D,
      })),
    );
  };
  const x = tf.tidy(() => tf.sub(tf.div(tf.cast(tf.expandDims(square, 0), 'float32'), 127.5), 1) as TF.Tensor4D);
  let out = then(x, () => conv(x, L.first, 2));
  let conv11: TF.Tensor4D | undefined;
  L.pairs.forEach((p, i) => {
    const input = out;
    out = then(input, () => conv(dwConv(input, p.depthwise, STRIDE_TWO.has(i + 1) ? 2 : 1), p.pointwise, 1), input === conv11);
    if (i + 1 === 11) conv11 = out;
  });
  head(conv11!);
  conv11!.dispose();
  head(out);
  // The extra layers: every second one's output feeds a prediction head.
  let c = then(out, () => conv(out, L.extra[0], 1));
  for (let k = 1; k < 8; k++) {
    const input = c;
    c = then(input, () => conv(input, L.extra[k], k % 2 === 1 ? 2 : 1));
    if (k % 2 === 1) head(c);
  }
  c.dispose();
  try {
    return tf.tidy(() => {
      const enc = tf.concat(heads.map((h) => h.encoding), 0) as TF.Tensor2D;
      const scores = tf.sigmoid(tf.slice(tf.concat(heads.map((h) => h.classes), 0), [0, 1], [-1, 1])).reshape([-1]) as TF.Tensor1D;
      // Anchors are (ymin, xmin, ymax, xmax); encodings (ty, tx, th, tw) with SSD's scales 10 and 5.
      const [a0, a1, a2, a3] = tf.unstack(L.anchors, 1);
      const [e0, e1, e2, e3] = tf.unstack(enc, 1);
      const h = tf.sub(a2, a0);
      const w = tf.sub(a3, a1);
      const cy = tf.add(tf.mul(tf.div(e0, 10), h), tf.add(a0, tf.div(h, 2)));
      const cx = tf.add(tf.mul(tf.div(e1, 10), w), tf.add(a1, tf.div(w, 2)));
      const hh = tf.div(tf.mul(tf.exp(tf.div(e2, 5)), h), 2);
      const hw = tf.div(tf.mul(tf.exp(tf.div(e3, 5)), w), 2);
      const boxes = tf.stack([tf.sub(cy, hh), tf.sub(cx, hw), tf.add(cy, hh), tf.add(cx, hw)], 1) as TF.Tensor2D;
      return { boxes, scores };
    });
  } finally {
    for (const h of heads) tf.dispose([h.encoding, h.classes]);
  }
}

/** face-api's non-maximum suppression (same order, same rule), on plain arrays. */
export function suppress(boxes: Float32Array, scores: Float32Array, maxResults: number, iouThreshold: number, minScore: number): number[] {
  const candidates: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] > minScore) candidates.push(i);
  candidates.sort((a, b) => scores[b] - scores[a]);
  const iou = (i: number, j: number) => {
    const [yi0, xi0, yi1, xi1] = [Math.min(boxes[4 * i], boxes[4 * i + 2]), Math.min(boxes[4 * i + 1], boxes[4 * i + 3]), Math.max(boxes[4 * i], boxes[4 * i + 2]), Math.max(boxes[4 * i + 1], boxes[4 * i + 3])];
    const [yj0, xj0, yj1, xj1] = [Math.min(boxes[4 * j], boxes[4 * j + 2]), Math.min(boxes[4 * j + 1], boxes[4 * j + 3]), Math.max(boxes[4 * j], boxes[4 * j + 2]), Math.max(boxes[4 * j + 1], boxes[4 * j + 3])];
    const ai = (yi1 - yi0) * (xi1 - xi0);
    const aj = (yj1 - yj0) * (xj1 - xj0);
    if (ai <= 0 || aj <= 0) return 0;
    const inter = Math.max(Math.min(yi1, yj1) - Math.max(yi0, yj0), 0) * Math.max(Math.min(xi1, xj1) - Math.max(xi0, xj0), 0);
    return inter / (ai + aj - inter);
  };
  const selected: number[] = [];
  for (const c of candidates) {
    if (selected.length >= maxResults) break;
    if (selected.every((s) => iou(c, s) <= iouThreshold)) selected.push(c);
  }
  return selected;
}
