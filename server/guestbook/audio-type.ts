import type { AudioFacts } from '../processing/audio.js';
import { sniff } from '../uploads/sniff.js';

/** What a voice note is, decided from its first bytes (never its name or declared type). */
export interface AudioType {
  mime: 'audio/webm' | 'audio/ogg' | 'audio/mp4' | 'audio/wav';
  ext: 'webm' | 'ogg' | 'm4a' | 'wav';
}

const ascii = (b: Buffer, start: number, end: number) => (b.length >= end ? b.toString('latin1', start, end) : '');

/** Brands of an MP4 file that may hold only sound (phones write 'M4A ', browsers 'isom'/'mp42'/'iso5'). */
const MP4_AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'isom', 'iso2', 'iso4', 'iso5', 'iso6', 'mp41', 'mp42', 'dash', '3gp4', '3gp5', '3gp6']);

/**
 * WebM and Ogg (Opus), MP4/M4A (AAC) and WAV by their magic bytes; null for anything else. An
 * ISO media file counts as audio by its brands only: whether it really holds AAC and no picture is
 * what the probe checks.
 */
export function sniffAudio(head: Buffer): AudioType | null {
  if (ascii(head, 0, 4) === 'OggS') return { mime: 'audio/ogg', ext: 'ogg' };
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return { mime: 'audio/wav', ext: 'wav' };
  // WebM's EBML header, as the photo uploads recognise it.
  if (sniff(head)?.mime === 'video/webm') return { mime: 'audio/webm', ext: 'webm' };
  if (ascii(head, 4, 8) === 'ftyp') {
    const boxSize = head.readUInt32BE(0);
    const brands = [ascii(head, 8, 12)];
    for (let o = 16; o + 4 <= Math.min(boxSize, head.length); o += 4) brands.push(ascii(head, o, o + 4));
    if (brands.some((b) => MP4_AUDIO_BRANDS.has(b))) return { mime: 'audio/mp4', ext: 'm4a' };
  }
  return null;
}

/** The codecs each container may carry: Opus in WebM and Ogg, AAC in MP4, PCM in WAV. */
export function codecFits(type: AudioType, facts: Pick<AudioFacts, 'codec'>): boolean {
  const codec = facts.codec ?? '';
  if (type.mime === 'audio/webm' || type.mime === 'audio/ogg') return codec === 'opus';
  if (type.mime === 'audio/mp4') return codec === 'aac';
  return codec.startsWith('pcm_');
}
