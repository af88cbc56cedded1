/**
 * V8's young generation, where every request's short-lived objects start. From Node 22 on, V8
 * lets it grow to twice what Node 20's did (a 64 MiB new space against 32), and under an upload
 * rush the server and the media worker each keep it: on Node 24, the image's, they held 50 MiB
 * more together, and the rush's memory goal (server and media worker under 700 MiB) was missed
 * by that and more (docs/benchmarks.md, Keepsakes, 2026-12-08). Node reads the option only when
 * it starts, so the image (Dockerfile), `npm start` / `npm run serve` and the benchmarks' server
 * pass it in NODE_OPTIONS, which the media worker and the face workers inherit.
 */
export const YOUNG_GENERATION_OPTION = '--max-semi-space-size=16';
