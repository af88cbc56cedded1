// How alike two face codes are. dlib's ResNet maps a face to 128 numbers so that photos of one
// person lie close together: the Euclidean distance between two codes is small for the same
// person and large for two people. docs/features.md "Find the photos you're in" has the measurements.

/**
 * The largest distance counted as the same person, chosen on measurements (npm run
 * bench:faces-threshold; docs/features.md "Find the photos you're in"): 83 selfies made from the 22 faces
 * of the six group photos (mirrored, 200-1024 px, relit) lay at a median 0.25 from their own
 * face (96.4% within 0.45), and 1 of their 1743 distances to the other 21 people was below
 * 0.45 (0.439; the next 0.455). 0.5 would find 98.8% but match other people 9 times in 1743;
 * 0.4 none of them, but find 94.0%.
 */
export const MATCH_DISTANCE = 0.45;

export function distance(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    sum += d * d;
  }
  return Math.sqrt(sum);
}

/** 0-1 for people: 1 is the same picture, 0.5 the threshold, 0 twice the threshold or more. */
export function similarity(d: number): number {
  return Math.round(Math.max(0, Math.min(1, 1 - d / (2 * MATCH_DISTANCE))) * 1000) / 1000;
}

/** The closest of a picture's faces to the guest's code, or undefined when none is close enough. */
export function bestMatch(guest: Float32Array, faces: Float32Array[]): number | undefined {
  let best = Infinity;
  for (const f of faces) best = Math.min(best, distance(guest, f));
  return best <= MATCH_DISTANCE ? best : undefined;
}
