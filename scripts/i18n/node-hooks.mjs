// Node's side of the catalogues, for code run from source (tests, benchmarks): the same
// `locales:` modules the build makes, with the full keys (nothing is shortened here).
import { loadLocales, moduleSource } from './catalogues.mjs';

let loc;
export async function resolve(specifier, context, next) {
  if (specifier.startsWith('locales:')) return { url: specifier, shortCircuit: true };
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (!url.startsWith('locales:')) return next(url, context);
  loc ??= await loadLocales();
  return { format: 'module', source: moduleSource(loc, url.slice('locales:'.length), { shorten: false }), shortCircuit: true };
}
