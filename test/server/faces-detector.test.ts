import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { GROUP_PHOTOS } from '../helpers/faces.js';
import { tilesFor } from '../../server/faces/engine/boxes.js';
import { cutOut, detectSquare, DETECTOR_PX, loadModels, type Detection } from '../../server/faces/engine/face-model.js';
import { decode } from '../../server/faces/engine/faces-in-picture.js';

// The detector runs as fused layers (server/faces/engine/fused-detector.ts): batch
// normalisation folded into the convolutions, bias and ReLU6 in the same call. It must find
// exactly what face-api's own forward pass finds with the same weights, on real group photos.

before(async () => {
  await loadModels();
});

const close = (a: Detection, b: Detection) =>
  Math.abs(a.x - b.x) < 0.05 && Math.abs(a.y - b.y) < 0.05 && Math.abs(a.width - b.width) < 0.05 && Math.abs(a.height - b.height) < 0.05 && Math.abs(a.score - b.score) < 1e-4;

test("the fused detector finds the same faces, at the same places with the same scores, as face-api's forward pass", async () => {
  let squares = 0;
  let faces = 0;
  for (const file of GROUP_PHOTOS) {
    // The whole picture in one square, and the 1344 px level's tiles (most of them smaller faces).
    const whole = await decode(file, DETECTOR_PX);
    const fine = await decode(file, 1344);
    const parts = [whole, ...tilesFor(fine.width, fine.height, DETECTOR_PX, 64).map((t) => cutOut(fine, t))];
    for (const part of parts) {
      const reference = await detectSquare(part, true);
      const fused = await detectSquare(part);
      assert.equal(fused.length, reference.length, `${file}: ${JSON.stringify(fused)} against ${JSON.stringify(reference)}`);
      for (const [i, r] of reference.entries()) assert.ok(close(fused[i], r), `${file}: ${JSON.stringify(fused[i])} against ${JSON.stringify(r)}`);
      squares++;
      faces += reference.length;
    }
  }
  // The photos hold 22 faces; tiles overlap, so some are seen twice.
  assert.ok(faces >= 22, `only ${faces} faces over ${squares} squares`);
});

test('a square with no face gives none, and the fused layers hold no tensors after it', async () => {
  const grey: import('../../server/faces/engine/face-model.js').RgbImage = { data: new Uint8Array(300 * 200 * 3).fill(128), width: 300, height: 200 };
  assert.deepEqual(await detectSquare(grey), []);
  const tf = (await import('@vladmandic/face-api/dist/face-api.node-wasm.js')).tf as unknown as { memory(): { numTensors: number } };
  const before = tf.memory().numTensors;
  await detectSquare(grey);
  await detectSquare(await decode(GROUP_PHOTOS[0], DETECTOR_PX));
  assert.equal(tf.memory().numTensors, before);
});
