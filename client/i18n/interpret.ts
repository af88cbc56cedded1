/**
 * Fills in a message precompiled by Lingui's compiler (@lingui/message-utils, at build time):
 * the same output as @lingui/core's interpolation (test/i18n/interpret.test.ts compares the two
 * on every message of every catalogue), in a fraction of its size. The server uses @lingui/core
 * itself; docs/translating.md "Translating" has the measurements.
 *
 * With `isolate` (a right-to-left page), every value placed into the sentence is wrapped in
 * U+2068 FIRST STRONG ISOLATE ... U+2069 POP DIRECTIONAL ISOLATE, so "Anna (sister)" or a file
 * name keeps its brackets and numbers in place inside Arabic or Hebrew. The server does the same
 * (server/i18n/isolate.ts); plural counts (#) are the language's own number and stay as they are.
 */
type Cases = Record<string, Compiled> & { offset?: number };
type Token = string | [name: string, type?: string, format?: unknown];
export type Compiled = string | Token[];
type Values = Record<string, unknown>;

const FSI = '\u2068';
const PDI = '\u2069';

const formats = new Map<string, Intl.NumberFormat | Intl.PluralRules>();
function cached<T extends Intl.NumberFormat | Intl.PluralRules>(key: string, make: () => T): T {
  let f = formats.get(key) as T | undefined;
  if (!f) formats.set(key, (f = make()));
  return f;
}

export function interpret(locale: string, message: Compiled, values: Values = {}, isolate = false): string {
  return fill(locale, message, values, isolate, undefined);
}

function fill(locale: string, message: Compiled, values: Values, isolate: boolean, hash: string | undefined): string {
  if (!Array.isArray(message)) return message;
  let out = '';
  for (const token of message) {
    if (typeof token === 'string') {
      out += token === '#' && hash !== undefined ? hash : token;
      continue;
    }
    const [name, type, format] = token;
    const value = values[name];
    if (type === 'plural' || type === 'selectordinal') {
      const { offset = 0, ...rules } = format as Cases;
      const n = Number(value) - offset;
      const plural = cached(`p${locale}${type}`, () => new Intl.PluralRules(locale, { type: type === 'plural' ? 'cardinal' : 'ordinal' }));
      const branch = rules[String(value)] ?? rules[plural.select(n)] ?? rules.other;
      out += fill(locale, branch, values, isolate, cached(`n${locale}`, () => new Intl.NumberFormat(locale)).format(n));
    } else if (type === 'select') {
      const rules = format as Cases;
      out += fill(locale, rules[String(value)] ?? rules.other, values, isolate, undefined);
    } else {
      let placed = '';
      if (type === 'number' && typeof value === 'number') {
        placed = cached(`n${locale}${format}`, () => new Intl.NumberFormat(locale, typeof format === 'string' ? { style: format as 'percent' } : undefined)).format(value);
      } else if (value != null) placed = String(value);
      out += isolate ? FSI + placed + PDI : placed;
    }
  }
  return out;
}
