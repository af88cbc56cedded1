// The face search's match threshold, measured (npm run bench:faces-threshold). On the six real
// group photos (test/fixtures/faces_group_*.jpg, 22 people): every face becomes four selfies
// (mirrored or not, 200-1024 px, lighter and darker, more and less contrast, as
// test/helpers/faces.ts SELFIE_LOOKS makes them); each selfie's code is compared with the codes
// of every face in the photos: its own face is the same person, the 21 others are other people.
// Then the photos are shrunk until faces are 40-90 px wide, to see how the distance to the right
// face grows when a face is small. Prints the distances and, per threshold, how many right faces
// are found and how many wrong ones would be.
import { decode, facesOf, selfieCode } from '../../server/faces/engine/faces-in-picture.js';
import { loadModels } from '../../server/faces/engine/face-model.js';
import type { Box } from '../../server/faces/engine/boxes.js';
import { distance, MATCH_DISTANCE } from '../../server/faces/similarity.js';
import { GROUP_PHOTOS, selfieFrom, SELFIE_LOOKS } from '../../test/helpers/faces.js';
import { percentile } from './rush-http.js';

interface Face {
  photo: number;
  box: Box;
  code: Float32Array;
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const f = (v: number) => v.toFixed(3);
  return `n ${s.length}, min ${f(s[0])}, p5 ${f(percentile(s, 5))}, median ${f(percentile(s, 50))}, p95 ${f(percentile(s, 95))}, max ${f(s[s.length - 1])}`;
};

async function main(): Promise<void> {
  await loadModels();
  const faces: Face[] = [];
  for (const [photo, file] of GROUP_PHOTOS.entries()) {
    const found = await facesOf(await decode(file, 1920), null);
    found.boxes.forEach((box, i) => found.codes[i] && faces.push({ photo, box, code: found.codes[i]! }));
  }
  console.log(`${faces.length} faces in ${GROUP_PHOTOS.length} photos`);

  const same: number[] = [];
  const other: number[] = [];
  const closestOther: { d: number; what: string }[] = [];
  let missed = 0;
  const selfies = new Map<Face, Float32Array>();
  for (const [i, face] of faces.entries()) {
    for (const [l, look] of SELFIE_LOOKS.entries()) {
      const code = await selfieCode(await decode(await selfieFrom(GROUP_PHOTOS[face.photo], face.box, look), 1024));
      if (!code) {
        missed++;
        continue;
      }
      if (l === 0) selfies.set(face, code);
      same.push(distance(code, face.code));
      for (const [j, f] of faces.entries()) {
        if (j === i) continue;
        const d = distance(code, f.code);
        other.push(d);
        closestOther.push({ d, what: `selfie of face ${i} (photo ${face.photo + 1}, look ${l}) vs face ${j} (photo ${f.photo + 1})` });
      }
    }
  }
  console.log(`selfies: ${faces.length * SELFIE_LOOKS.length}, no face found in ${missed}`);
  console.log(`same person (selfie vs its own face): ${stats(same)}`);
  console.log(`other people (selfie vs every other face): ${stats(other)}`);
  console.log('closest other people:');
  for (const c of closestOther.sort((a, b) => a.d - b.d).slice(0, 5)) console.log(`  ${c.d.toFixed(3)}  ${c.what}`);

  // Small faces: the photo shrunk so its faces are about `px` wide, codes from the same boxes.
  for (const px of [90, 60, 40]) {
    const small: number[] = [];
    for (const [photo, file] of GROUP_PHOTOS.entries()) {
      const mine = faces.filter((f) => f.photo === photo);
      const widest = Math.max(...mine.map((f) => f.box.width));
      const img = await decode(file, Math.round(px / widest));
      const got = await facesOf(img, mine.map((f) => f.box));
      got.codes.forEach((c, k) => c && selfies.has(mine[k]) && small.push(distance(selfies.get(mine[k])!, c)));
    }
    console.log(`same person, the photo's faces about ${px} px wide: ${stats(small)}; within ${MATCH_DISTANCE}: ${small.filter((d) => d <= MATCH_DISTANCE).length}`);
  }

  console.log('\nthreshold | same person found | other people matched');
  for (const t of [0.4, 0.45, 0.5, 0.55, 0.6]) {
    const hit = same.filter((d) => d <= t).length;
    const wrong = other.filter((d) => d <= t).length;
    console.log(`${t.toFixed(2)} | ${hit}/${same.length} (${((hit / same.length) * 100).toFixed(1)}%) | ${wrong}/${other.length} (${((wrong / other.length) * 100).toFixed(2)}%)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
