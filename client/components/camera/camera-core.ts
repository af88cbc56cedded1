/**
 * The browser's camera: opening it (rear first), the reason it cannot open, a photo at the full
 * resolution the browser offers, and a video of at most 60 s. Used by the camera on /live and the
 * photo booth.
 */

export type Facing = 'environment' | 'user';
/** Why the page cannot open the camera: plain HTTP, refused permission, no camera, anything else. */
export type CameraProblem = 'insecure' | 'denied' | 'none' | 'failed';

export class CameraUnavailable extends Error {
  constructor(readonly problem: CameraProblem) {
    super(`camera unavailable: ${problem}`);
  }
}

/** Longest video taken in the page, in seconds. */
export const MAX_VIDEO_SECONDS = 60;

/** Opens the camera facing `facing`, at the largest size it offers (photos) or Full HD (videos, with sound). */
export async function openCamera(facing: Facing, video: boolean): Promise<MediaStream> {
  // getUserMedia exists only in a secure context (https, or localhost): a phone on plain HTTP has none.
  if (typeof window !== 'undefined' && window.isSecureContext === false) throw new CameraUnavailable('insecure');
  if (!navigator.mediaDevices?.getUserMedia) throw new CameraUnavailable(window.isSecureContext ? 'none' : 'insecure');
  const size = video ? { width: { ideal: 1920 }, height: { ideal: 1080 } } : { width: { ideal: 4096 }, height: { ideal: 3072 } };
  try {
    return await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: facing }, ...size }, audio: video });
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (video && (name === 'NotFoundError' || name === 'NotReadableError')) {
      // A phone without a microphone (or one in use) still records pictures.
      try {
        return await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: facing }, ...size }, audio: false });
      } catch {
        /* the reason below is the camera's */
      }
    }
    throw new CameraUnavailable(problemOf(name));
  }
}

function problemOf(name: string | undefined): CameraProblem {
  if (name === 'NotAllowedError' || name === 'PermissionDeniedError') return 'denied';
  if (name === 'SecurityError') return window.isSecureContext ? 'denied' : 'insecure';
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') return 'none';
  return 'failed';
}

export function stopStream(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Whether the device has more than one camera (the switch between front and rear). */
export async function hasSeveralCameras(): Promise<boolean> {
  try {
    const devices = await navigator.mediaDevices.enumerateDevices();
    return devices.filter((d) => d.kind === 'videoinput').length > 1;
  } catch {
    return false;
  }
}

/**
 * The frame the video shows now, unmirrored, at most `maxSide` pixels on its long side (the
 * screen's size for the shutter's instant picture; none for the video's own size).
 */
export function frameNow(video: HTMLVideoElement, maxSide = Infinity): HTMLCanvasElement {
  const scale = Math.min(1, maxSide / Math.max(video.videoWidth, video.videoHeight));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext('2d')!.drawImage(video, 0, 0, canvas.width, canvas.height);
  return canvas;
}

/** The long side of a picture shown on this screen, in device pixels. */
export const screenSide = () => Math.ceil(Math.max(window.innerWidth, window.innerHeight) * Math.min(2, window.devicePixelRatio || 1));

interface ImageCaptureLike {
  takePhoto(settings?: { imageWidth?: number; imageHeight?: number }): Promise<Blob>;
  getPhotoCapabilities?(): Promise<{ imageWidth?: { max?: number }; imageHeight?: { max?: number } }>;
}
declare const ImageCapture: { new (track: MediaStreamTrack): ImageCaptureLike } | undefined;

/**
 * The full-resolution photo: ImageCapture's takePhoto at the sensor's largest size where the
 * browser has it, else `frame()` (the video's frame at its full size). Always a drawable image.
 */
export async function fullPhoto(track: MediaStreamTrack | undefined, frame: () => HTMLCanvasElement, frameSize: { width: number; height: number }): Promise<CanvasImageSource & { width: number; height: number }> {
  if (track && typeof ImageCapture !== 'undefined') {
    try {
      const capture = new ImageCapture(track);
      const caps = await capture.getPhotoCapabilities?.().catch(() => undefined);
      const w = caps?.imageWidth?.max;
      const h = caps?.imageHeight?.max;
      const blob = await withTimeout(capture.takePhoto(w && h ? { imageWidth: w, imageHeight: h } : undefined), 4000);
      const bitmap = await createImageBitmap(blob);
      // A sensor photo smaller than the video frame (some drivers) loses to the frame.
      if (bitmap.width * bitmap.height >= frameSize.width * frameSize.height) return bitmap;
      bitmap.close();
    } catch {
      /* the video frame it is */
    }
  }
  return frame();
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** A drawable image as a JPEG, at its own size. */
export function toJpeg(image: CanvasImageSource & { width: number; height: number }, quality = 0.92): Promise<Blob> {
  const canvas = image instanceof HTMLCanvasElement ? image : document.createElement('canvas');
  if (canvas !== image) {
    canvas.width = image.width;
    canvas.height = image.height;
    canvas.getContext('2d')!.drawImage(image, 0, 0);
  }
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('no JPEG'))), 'image/jpeg', quality));
}

/**
 * The recording format: WebM with VP8 or VP9 wherever the browser records it (every Chromium and
 * Firefox has those encoders; an MP4 from a Chromium without an H.264 encoder holds only the
 * sound), else MP4 (Safari).
 */
export function recordingType(): string {
  const types = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4;codecs=avc1.42E01E,mp4a.40.2', 'video/mp4'];
  return types.find((t) => typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(t)) ?? '';
}

/** The time now as ISO 8601 with the phone's own offset (what the upload sends as captured_at). */
export function localIsoNow(d = new Date()): string {
  const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '-';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}${sign}${pad(Math.trunc(off / 60))}:${pad(off % 60)}`;
}

/** A file name for something taken now: "photo-20260607-183005.jpg". */
export function captureName(kind: 'photo' | 'video' | 'booth', ext: string, d = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${kind}-${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}.${ext}`;
}

/** Times of the shutter presses (bench:camera and the tests read them). */
declare global {
  interface Window {
    __cameraTimings?: { shutterToPreviewMs: number[]; previewFirst: boolean[] };
  }
}

/** A shutter press: when it came, and whether its full-size photo has begun. */
export interface Shot {
  start: number;
  fullStarted: boolean;
}

/** Called as a press's preview goes on screen: the next painted frame shows it, so that is its time. */
export function timeShot(shot: Shot): void {
  requestAnimationFrame(() => {
    const timings = (window.__cameraTimings ??= { shutterToPreviewMs: [], previewFirst: [] });
    timings.shutterToPreviewMs.push(performance.now() - shot.start);
    timings.previewFirst.push(!shot.fullStarted);
  });
}
