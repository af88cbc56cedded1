/**
 * Which shipped language a request gets: `?lang=` (pages only) > the `wedding_lang` cookie >
 * the best `Accept-Language` match > the wedding's `default_language`. Values that name no
 * shipped language are ignored at every step.
 */

export type LanguageSource = 'query' | 'cookie' | 'header' | 'default';

export interface LanguageRequest {
  /** `?lang=` of a page (API requests leave it out). */
  query?: unknown;
  cookie?: string;
  acceptLanguage?: string;
  /** The wedding's default_language. */
  fallback: string;
  shipped: readonly string[];
}

/** Chinese written in simplified characters is `zh` here; traditional (Hant, TW, HK, MO) is not. */
const SIMPLIFIED_CHINESE = /^zh(-hans)?(-(cn|sg|my))?$/;
/** Old codes browsers still send. */
const ALIASES: Record<string, string> = { iw: 'he', in: 'id', ji: 'yi' };

/** The shipped language a language tag ("pt-BR", "zh-Hans-CN", "de") stands for, if any. */
export function matchTag(tag: unknown, shipped: readonly string[]): string | undefined {
  if (typeof tag !== 'string') return undefined;
  const t = tag.trim().toLowerCase().replace(/_/g, '-');
  if (!/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(t)) return undefined;
  let primary = t.split('-')[0];
  primary = ALIASES[primary] ?? primary;
  if (primary === 'zh' && !SIMPLIFIED_CHINESE.test(t)) return undefined;
  return shipped.includes(primary) ? primary : undefined;
}

/** The best shipped match of an Accept-Language header, honouring q-values (q=0 means "not this"). */
export function matchAcceptLanguage(header: string | undefined, shipped: readonly string[]): string | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .slice(0, 40) // a header is a handful of tags; a long one is not worth reading further
    .map((part, i) => {
      const [tag, ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, i };
    })
    .filter((r) => r.q > 0 && r.tag && r.tag !== '*')
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) {
    const m = matchTag(r.tag, shipped);
    if (m) return m;
  }
  return undefined;
}

/** A cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

export function negotiateLanguage(r: LanguageRequest): { language: string; source: LanguageSource } {
  const query = matchTag(Array.isArray(r.query) ? r.query[0] : r.query, r.shipped);
  if (query) return { language: query, source: 'query' };
  const cookie = matchTag(r.cookie, r.shipped);
  if (cookie) return { language: cookie, source: 'cookie' };
  const header = matchAcceptLanguage(r.acceptLanguage, r.shipped);
  if (header) return { language: header, source: 'header' };
  return { language: r.shipped.includes(r.fallback) ? r.fallback : r.shipped.includes('en') ? 'en' : r.shipped[0], source: 'default' };
}
