import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** ../shared/samples next to the project (real camera and phone files). */
export const SAMPLES = process.env.SAMPLES_DIR ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/samples');
export const sample = (name: string) => path.join(SAMPLES, name);
