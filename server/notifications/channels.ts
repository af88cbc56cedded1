import type { NotifyChannel, NotifyEvent, NotifySettings, WebhookBody } from '../../common/security-types.js';
import { translate } from '../i18n/messages.js';

/** One message, as every channel carries it. */
export interface Message {
  event: NotifyEvent;
  title: string;
  text: string;
  count: number | null;
  /** The language title and text are in; a failure's reason is given in it too. */
  lang: string;
  /** Where to act on it (the approval queue ...), when known. */
  url: string | null;
}

/** Delivers a message or rejects with a sentence saying why not; never takes longer than `timeoutMs`. */
export type Sender = (m: Message, timeoutMs: number) => Promise<void>;

/** fetch refuses addresses with a user and password in them: they become a Basic header. */
function withoutCredentials(raw: string): { url: string; headers: Record<string, string> } {
  const u = new URL(raw);
  const headers: Record<string, string> = {};
  if (u.username || u.password) {
    headers.Authorization = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
    u.username = '';
    u.password = '';
  }
  return { url: u.toString(), headers };
}

/** Where a request failed, without the address (its path and query may hold a token). */
function why(e: unknown, timeoutMs: number, lang: string): string {
  const err = e as { name?: string; cause?: { code?: string; message?: string }; message?: string };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return translate(lang, 'errors.notify.timeout', { seconds: Math.round(timeoutMs / 1000) });
  return err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e);
}

async function post(raw: string, body: string, headers: Record<string, string>, timeoutMs: number, lang: string): Promise<void> {
  const { url, headers: auth } = withoutCredentials(raw);
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', body, headers: { ...headers, ...auth }, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch (e) {
    throw new Error(why(e, timeoutMs, lang));
  }
  await res.arrayBuffer().catch(() => undefined);
  if (!res.ok) throw new Error(translate(lang, 'errors.notify.status', { status: res.status, text: res.statusText }).trim());
}

/**
 * ntfy, published as JSON to the server's root with the topic in the body
 * (https://docs.ntfy.sh/publish/#publish-as-json): titles in any language, which HTTP headers
 * cannot carry. The topic is the address's last path segment; a query (?auth=...) stays.
 */
export const ntfySender =
  (topicUrl: string): Sender =>
  (m, timeoutMs) => {
    const u = new URL(topicUrl);
    const parts = u.pathname.split('/');
    const topic = decodeURIComponent(parts.pop() ?? '');
    u.pathname = parts.join('/') + '/';
    const body = { topic, title: m.title, message: m.text, tags: [m.event === 'test' ? 'white_check_mark' : 'wedding'], ...(m.url ? { click: m.url } : {}) };
    return post(u.toString(), JSON.stringify(body), { 'Content-Type': 'application/json' }, timeoutMs, m.lang);
  };

/** A webhook: POST JSON {event, text, count, url}. */
export const webhookSender =
  (hookUrl: string): Sender =>
  (m, timeoutMs) => {
    const body: WebhookBody = { event: m.event, text: m.text, count: m.count, url: m.url };
    return post(hookUrl, JSON.stringify(body), { 'Content-Type': 'application/json' }, timeoutMs, m.lang);
  };

/** E-mail over SMTP with nodemailer; STARTTLS when the server offers it, smtps:// for TLS from the start. */
export const emailSender =
  (smtpUrl: string, from: string, to: string): Sender =>
  async (m, timeoutMs) => {
    const u = new URL(smtpUrl);
    const secure = u.protocol === 'smtps:';
    // Loaded on first use: most sites never send e-mail, and loading it costs a second at start on a busy machine.
    const nodemailer = (await import('nodemailer')).default;
    const transport = nodemailer.createTransport({
      host: u.hostname,
      port: u.port ? Number(u.port) : secure ? 465 : 587,
      secure,
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    const text = m.url ? `${m.text}\n\n${translate(m.lang, 'notify.open_link', { url: m.url })}\n` : `${m.text}\n`;
    try {
      await transport.sendMail({ from, to, subject: m.title, text });
    } catch (e) {
      const err = e as { code?: string; responseCode?: number; message?: string };
      throw new Error(err.responseCode ? translate(m.lang, 'errors.notify.smtp_status', { status: err.responseCode }) : err.code ?? err.message ?? String(e));
    } finally {
      transport.close();
    }
  };

/** The channels the settings turn on, each with its sender. */
export function configuredSenders(n: NotifySettings): Map<NotifyChannel, Sender> {
  const out = new Map<NotifyChannel, Sender>();
  if (n.ntfy_url) out.set('ntfy', ntfySender(n.ntfy_url));
  if (n.webhook_url) out.set('webhook', webhookSender(n.webhook_url));
  if (n.smtp_url && n.from && n.to) out.set('email', emailSender(n.smtp_url, n.from, n.to));
  return out;
}
