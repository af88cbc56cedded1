import { Router, type Request } from 'express';
import { requireAccount, requirePermission } from '../auth/auth.middleware.js';
import type { FailureLimiter } from '../auth/rate-limit.js';
import type { Config } from '../config.js';
import { AppError, invalid } from '../errors.js';
import { languageOf } from '../http/language.js';
import { save } from '../http/session.js';
import { translate } from '../i18n/messages.js';
import type { SettingsService } from '../settings/settings.service.js';
import { CEREMONY_MS, type Ceremony } from './passkeys.js';
import { relyingParty } from './relying-party.js';
import { passkeyName, type SecurityService } from './security.service.js';

declare module 'express-session' {
  interface SessionData {
    /** Adding a passkey: the challenge the browser's answer must carry. */
    webauthn: Ceremony;
    /** A new authenticator secret shown as a QR code, turned on once a code from it is typed. */
    totpSetup: { secret: string; at: number };
  }
}

const account = (req: Request) => (req.user ?? req.setupUser)!;

/**
 * /admin/api/security...: the signed-in account's passkeys and authenticator codes. An account
 * that must set one up before anything else may use these (and only these).
 */
export function securityRouter(security: SecurityService, settings: SettingsService, config: Config, limiter: FailureLimiter): Router {
  const r = Router();
  const s = Router();
  s.use(requireAccount);
  const rpOf = (req: Request) => relyingParty(config.publicUrl, { protocol: req.protocol, host: req.host });

  /** A code typed to change the codes counts toward the sign-in limit like one typed at sign-in. */
  const withCode = async <T>(req: Request, fn: () => Promise<T>): Promise<T> => {
    const keys = [`user:${account(req).username.toLowerCase()}`, `ip:${req.ip}`];
    const wait = limiter.attempt(keys);
    if (wait > 0) throw new AppError('rate_limited', 'errors.security.too_many_codes', { minutes: Math.ceil(wait / 60) }, { retry_after: wait });
    const out = await fn();
    limiter.forgive(keys);
    return out;
  };

  s.get('/', async (req, res) => {
    const user = account(req);
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, ...(await security.status(user.id)), setup_required: !req.user, passkey_support: rpOf(req).support });
  });

  s.post('/passkeys/options', async (req, res) => {
    const { rp } = rpOf(req);
    if (!rp) throw invalid('errors.security.passkey_unavailable');
    const [a, b] = (await settings.get()).couple_names;
    const { options, ceremony } = await security.passkeys.registrationOptions(rp, `${a} & ${b}`, account(req));
    req.session.webauthn = ceremony;
    await save(req);
    res.json({ success: true, options });
  });

  s.post('/passkeys', async (req, res) => {
    const { rp } = rpOf(req);
    if (!rp) throw invalid('errors.security.passkey_unavailable');
    const user = account(req);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const count = (await security.factors(user.id)).passkeys;
    const name = passkeyName(body.name, translate(languageOf(req), 'answers.passkey_default_name', { n: count + 1 }));
    const ceremony = req.session.webauthn;
    delete req.session.webauthn;
    const id = await security.passkeys.register(rp, ceremony && Date.now() - ceremony.at <= CEREMONY_MS ? ceremony : undefined, user.id, body.response, name);
    req.audit('passkey.add', { ids: [id], detail: { name } });
    res.status(201).json({ success: true, ...(await security.status(user.id)), setup_required: false });
  });

  s.patch('/passkeys/:id', async (req, res) => {
    const name = passkeyName((req.body as Record<string, unknown> | undefined)?.name);
    await security.renamePasskey(account(req).id, String(req.params.id), name);
    req.audit('passkey.rename', { ids: [String(req.params.id)], detail: { name } });
    res.json({ success: true, ...(await security.status(account(req).id)) });
  });

  s.delete('/passkeys/:id', async (req, res) => {
    await security.removePasskey(account(req).id, String(req.params.id));
    req.audit('passkey.remove', { ids: [String(req.params.id)] });
    res.json({ success: true, ...(await security.status(account(req).id)) });
  });

  s.post('/two-step/setup', async (req, res) => {
    const setup = await security.startTwoStep(account(req));
    req.session.totpSetup = { secret: setup.secret, at: Date.now() };
    await save(req);
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, ...setup });
  });

  s.post('/two-step/enable', async (req, res) => {
    const user = account(req);
    const pending = req.session.totpSetup;
    // A set-up is good for a quarter of an hour: time to install an app and scan.
    const secret = pending && Date.now() - pending.at <= 15 * 60_000 ? pending.secret : undefined;
    const codes = await security.enableTwoStep(user.id, secret, (req.body as Record<string, unknown> | undefined)?.code);
    delete req.session.totpSetup;
    req.audit('two_step.enable');
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, recovery_codes: codes });
  });

  s.post('/two-step/disable', async (req, res) => {
    const user = account(req);
    const code = (req.body as Record<string, unknown> | undefined)?.code;
    await withCode(req, () => security.disableTwoStep(user.id, code));
    req.audit('two_step.disable');
    res.json({ success: true, ...(await security.status(user.id)) });
  });

  s.post('/two-step/recovery-codes', async (req, res) => {
    const user = account(req);
    const code = (req.body as Record<string, unknown> | undefined)?.code;
    const codes = await withCode(req, () => security.replaceRecoveryCodes(user.id, code));
    req.audit('two_step.recovery_codes');
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, recovery_codes: codes });
  });

  // An admin helps someone who lost their phone: that account signs in with its password again.
  r.post('/security/reset/:userId', requirePermission('can_manage_users'), async (req, res) => {
    if (!/^\d+$/.test(String(req.params.userId))) throw invalid('errors.users.id_not_number');
    const id = Number(req.params.userId);
    await security.resetAll(id);
    req.audit('two_step.reset', { ids: [id] });
    res.json({ success: true });
  });

  r.use('/security', s);
  return r;
}
