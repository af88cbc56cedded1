import type { NotifySettings } from '../../common/security-types.js';
import { msg, type Message } from '../../common/languages.js';

/** Where secrets were: shown instead of them in every GET. */
export const MASK = '••••';

export const emptyNotify = (): NotifySettings => ({ ntfy_url: null, webhook_url: null, smtp_url: null, from: null, to: null });

/**
 * An address with its secrets hidden: a password in it, and for ntfy and webhooks the path and
 * query (an ntfy topic is its own password; Slack, Discord and most webhooks carry their token in
 * the path). The scheme, host and user name stay, so the admin sees where messages go.
 */
export function maskUrl(url: string | null, keepPath: boolean): string | null {
  if (!url) return url;
  try {
    const u = new URL(url);
    const auth = u.username ? `${u.username}${u.password ? `:${MASK}` : ''}@` : '';
    const rest = keepPath ? `${u.pathname === '/' ? '' : u.pathname}` : u.pathname === '/' && !u.search ? '' : `/${MASK}`;
    return `${u.protocol}//${auth}${u.host}${rest}`;
  } catch {
    return MASK;
  }
}

/** What GET settings answers: never a secret. */
export function maskNotify(n: NotifySettings): NotifySettings {
  return { ...n, ntfy_url: maskUrl(n.ntfy_url, false), webhook_url: maskUrl(n.webhook_url, false), smtp_url: maskUrl(n.smtp_url, true) };
}

const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+$/;
const addresses = (v: string) => v.split(',').map((a) => a.trim()).filter(Boolean);

/**
 * A PUT's `notify`: each field null (off) or a value; a field left out, or sent back exactly as
 * GET masked it, keeps what is stored. Problems are added to `problems`.
 */
export function parseNotify(raw: unknown, stored: NotifySettings, problems: Message[]): NotifySettings | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(msg('errors.notify.not_object'));
    return undefined;
  }
  const b = raw as Record<string, unknown>;
  const out = { ...stored };
  const known = new Set(Object.keys(emptyNotify()));
  for (const k of Object.keys(b)) if (!known.has(k)) problems.push(msg('errors.notify.unknown', { key: k }));
  const masked = maskNotify(stored);

  const url = (key: 'ntfy_url' | 'webhook_url' | 'smtp_url', schemes: string[], example: string) => {
    const v = b[key];
    if (v === undefined) return;
    if (v === null || v === '') return void (out[key] = null);
    if (typeof v !== 'string' || v.length > 2000) return void problems.push(msg('errors.notify.bad_url', { key, example }));
    if (v === masked[key]) return; // sent back as shown: the stored secret stays
    try {
      const u = new URL(v.trim());
      if (!schemes.includes(u.protocol) || !u.hostname) throw new Error('scheme');
      out[key] = u.toString();
    } catch {
      problems.push(msg('errors.notify.bad_url', { key, example }));
    }
  };
  url('ntfy_url', ['https:', 'http:'], 'https://ntfy.sh/your-topic');
  url('webhook_url', ['https:', 'http:'], 'https://example.com/hook');
  url('smtp_url', ['smtp:', 'smtps:'], 'smtp://user:password@mail.example.com:587');

  for (const key of ['from', 'to'] as const) {
    const v = b[key];
    if (v === undefined) continue;
    if (v === null || v === '') out[key] = null;
    else if (typeof v !== 'string' || v.length > 1000) problems.push(msg(key === 'from' ? 'errors.notify.bad_from' : 'errors.notify.bad_to'));
    else {
      const list = addresses(v);
      const bad = list.find((a) => !EMAIL.test(a.replace(/^.*<([^>]*)>\s*$/, '$1')));
      if (!list.length || bad !== undefined || (key === 'from' && list.length > 1)) problems.push(msg(key === 'from' ? 'errors.notify.bad_from' : 'errors.notify.bad_to'));
      else out[key] = list.join(', ');
    }
  }
  if (out.smtp_url && (!out.from || !out.to)) problems.push(msg('errors.notify.email_incomplete'));
  return out;
}
