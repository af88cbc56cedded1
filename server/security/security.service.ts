import type { Kysely } from 'kysely';
import type { PasskeyInfo } from '../../common/security-types.js';
import type { DB } from '../db/schema.js';
import { AppError, conflict, invalid, notFound } from '../errors.js';
import { qrSvg } from '../qr/qr.js';
import type { SettingsService } from '../settings/settings.service.js';
import { Passkeys } from './passkeys.js';
import { hashRecoveryCode, isRecoveryCodeShape, newRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.js';
import { passkeyRowToInfo, SecurityRepo } from './security.repo.js';
import { matchStep, newSecret, otpauthUrl } from './totp.js';

/** What a sign-in with the right password still needs. */
export type NextStep = 'done' | 'code' | 'passkey' | 'setup';

/** The outcome of a code typed at sign-in (or to change the codes). */
export type CodeCheck = { ok: false } | { ok: true; recovery: false } | { ok: true; recovery: true; left: number };

const PASSKEY_NAME_MAX = 60;

/**
 * An account's second factors and the rules around them: authenticator codes (RFC 6238) with
 * one-time recovery codes, passkeys, and the site-wide "require two-step sign-in" setting.
 */
export class SecurityService {
  readonly repo: SecurityRepo;
  readonly passkeys: Passkeys;

  constructor(
    db: Kysely<DB>,
    private readonly settings: SettingsService,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = new SecurityRepo(db);
    this.passkeys = new Passkeys(this.repo, now);
  }

  /**
   * Read afresh each time (two indexed lookups, only for signed-in admin requests while two-step
   * is required): a cache would outlive a deleted account whose id SQLite gives to the next one.
   */
  factors(userId: number): Promise<{ passkeys: number; twoStep: boolean }> {
    return this.repo.hasSecondFactor(userId);
  }

  async required(): Promise<boolean> {
    return (await this.settings.get()).require_two_step;
  }

  /** A signed-in account that must set up a passkey or codes before it may do anything else. */
  async setupRequired(userId: number): Promise<boolean> {
    if (!(await this.required())) return false;
    const f = await this.factors(userId);
    return f.passkeys === 0 && !f.twoStep;
  }

  async afterPassword(userId: number): Promise<NextStep> {
    const f = await this.factors(userId);
    if (f.twoStep) return 'code';
    if (!(await this.required())) return 'done';
    return f.passkeys > 0 ? 'passkey' : 'setup';
  }

  /** An authenticator code (each accepted once) or an unused recovery code. */
  async checkCode(userId: number, raw: unknown): Promise<CodeCheck> {
    if (typeof raw !== 'string' || raw.length > 40) return { ok: false };
    const code = raw.trim().replace(/\s/g, '');
    const stored = await this.repo.twoStep(userId);
    if (!stored) return { ok: false };
    if (/^\d{6}$/.test(code)) {
      const step = matchStep(stored.secret, code, this.now(), stored.last_step);
      return step !== null && (await this.repo.acceptStep(userId, step)) ? { ok: true, recovery: false } : { ok: false };
    }
    if (!isRecoveryCodeShape(code) || !(await this.repo.useRecoveryCode(userId, hashRecoveryCode(code)))) return { ok: false };
    return { ok: true, recovery: true, left: await this.repo.recoveryCodesLeft(userId) };
  }

  async status(userId: number): Promise<{ passkeys: PasskeyInfo[]; two_step: { enabled: boolean; recovery_codes_left: number }; require_two_step: boolean }> {
    const [rows, twoStep, left, required] = await Promise.all([
      this.repo.passkeys(userId),
      this.repo.twoStep(userId),
      this.repo.recoveryCodesLeft(userId),
      this.required(),
    ]);
    return { passkeys: rows.map(passkeyRowToInfo), two_step: { enabled: twoStep !== undefined, recovery_codes_left: twoStep ? left : 0 }, require_two_step: required };
  }

  /** A new secret to scan; turned on only once a code from it is typed back (enableTwoStep). */
  async startTwoStep(user: { id: number; username: string }): Promise<{ secret: string; otpauth_url: string; qr_svg: string }> {
    if (await this.repo.twoStep(user.id)) throw conflict('errors.security.two_step_already_on');
    const secret = newSecret();
    const [a, b] = (await this.settings.get()).couple_names;
    const url = otpauthUrl(secret, user.username, `${a} & ${b}`);
    return { secret, otpauth_url: url, qr_svg: await qrSvg(url) };
  }

  private async newRecoveryCodes(): Promise<{ codes: string[]; hashes: string[] }> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    return { codes, hashes: codes.map(hashRecoveryCode) };
  }

  /** Turns codes on when `code` comes from `secret`; answers the recovery codes, shown once. */
  async enableTwoStep(userId: number, secret: string | undefined, code: unknown): Promise<string[]> {
    if (!secret) throw invalid('errors.security.setup_again');
    const step = typeof code === 'string' ? matchStep(secret, code.trim(), this.now()) : null;
    if (step === null) throw new AppError('invalid_input', 'errors.security.code_wrong_setup');
    const { codes, hashes } = await this.newRecoveryCodes();
    if (!(await this.repo.enableTwoStep(userId, secret, step, hashes))) throw conflict('errors.security.two_step_already_on');
    return codes;
  }

  /** Turning codes off takes a current code (or a recovery code); never the last factor while two-step is required. */
  async disableTwoStep(userId: number, code: unknown): Promise<void> {
    if (!(await this.repo.twoStep(userId))) throw conflict('errors.security.two_step_not_on');
    const f = await this.factors(userId);
    if (f.passkeys === 0 && (await this.required())) throw conflict('errors.security.keep_one');
    if (!(await this.checkCode(userId, code)).ok) throw wrongCode();
    await this.repo.disableTwoStep(userId);
  }

  async replaceRecoveryCodes(userId: number, code: unknown): Promise<string[]> {
    if (!(await this.repo.twoStep(userId))) throw conflict('errors.security.two_step_not_on');
    if (!(await this.checkCode(userId, code)).ok) throw wrongCode();
    const { codes, hashes } = await this.newRecoveryCodes();
    await this.repo.replaceRecoveryCodes(userId, hashes);
    return codes;
  }

  async renamePasskey(userId: number, id: string, name: unknown): Promise<void> {
    if (!(await this.repo.renamePasskey(userId, id, passkeyName(name)))) throw notFound('errors.security.passkey_not_found');
  }

  async removePasskey(userId: number, id: string): Promise<void> {
    const f = await this.factors(userId);
    if (f.passkeys <= 1 && !f.twoStep && (await this.required()) && (await this.repo.passkey(id))?.user_id === userId) throw conflict('errors.security.keep_one');
    if (!(await this.repo.removePasskey(userId, id))) throw notFound('errors.security.passkey_not_found');
  }

  /** An admin turns require_two_step on: only with a factor of their own, or they would lock themselves in. */
  async checkRequireTwoStep(turningOn: boolean, adminId: number): Promise<void> {
    if (!turningOn) return;
    const f = await this.factors(adminId);
    if (f.passkeys === 0 && !f.twoStep) throw conflict('errors.security.require_own_first');
  }

  /** For an admin helping someone who lost their phone: every passkey and code of the account goes. */
  async resetAll(userId: number): Promise<void> {
    await this.repo.resetAll(userId);
  }
}

export const wrongCode = () => new AppError('not_signed_in', 'errors.security.code_wrong');

/** A passkey's name: trimmed, control characters removed, 1 to 60 characters. */
export function passkeyName(raw: unknown, fallback?: string): string {
  const name = typeof raw === 'string' ? raw.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim() : '';
  if (!name) {
    if (fallback !== undefined) return fallback;
    throw invalid('errors.security.passkey_name_missing');
  }
  if ([...name].length > PASSKEY_NAME_MAX) throw invalid('errors.security.passkey_name_too_long', { max: PASSKEY_NAME_MAX });
  return name;
}
