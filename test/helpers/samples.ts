import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** test/fixtures: the few real camera and phone files the tests need (source and licence in its README). */
export const SAMPLES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
export const sample = (name: string) => path.join(SAMPLES, name);
