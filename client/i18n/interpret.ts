/**
 * Fills in a message precompiled by Lingui's compiler (@lingui/message-utils, at build time):
 * the same output as @lingui/core's interpolation (test/i18n/interpret.test.ts compares the two
 * on every message of every catalogue), in a fraction of its size. The server uses @lingui/core
 * itself; docs/translating.md "Translating" has the measurements.
 */
type Cases = Record<string, Compiled> & { offset?: number };
type Token = string | [name: string, type?: string, format?: unknown];
export type Compiled = string | Token[];
type Values = Record<string, unknown>;

const formats = new Map<string, Intl.NumberFormat | Intl.PluralRules>();
function cached<T extends Intl.NumberFormat | Intl.PluralRules>(key: string, make: () => T): T {
  let f = formats.get(key) as T | undefined;
  if (!f) formats.set(key, (f = make()));
  return f;
}

export function interpret(locale: string, message: Compiled, values: Values = {}, hash?: string): string {
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
      out += interpret(locale, branch, values, cached(`n${locale}`, () => new Intl.NumberFormat(locale)).format(n));
    } else if (type === 'select') {
      const rules = format as Cases;
      out += interpret(locale, rules[String(value)] ?? rules.other, values);
    } else if (type === 'number' && typeof value === 'number') {
      out += cached(`n${locale}${format}`, () => new Intl.NumberFormat(locale, typeof format === 'string' ? { style: format as 'percent' } : undefined)).format(value);
    } else if (value != null) out += value;
  }
  return out;
}
