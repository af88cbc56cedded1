import crypto from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { AppError, invalid } from '../errors.js';
import type { RelyingParty } from './relying-party.js';
import type { SecurityRepo } from './security.repo.js';
import { log } from '../log.js';

/** A ceremony's challenge, kept in the session between its two requests. */
export interface Ceremony {
  challenge: string;
  rpID: string;
  origin: string;
  /** ms since the epoch; a ceremony is good for CEREMONY_MS. */
  at: number;
}

export const CEREMONY_MS = 5 * 60_000;

const failed = () => new AppError('not_signed_in', 'errors.security.passkey_check_failed');

/**
 * The WebAuthn library is loaded on first use: it and its ASN.1 parsers take seconds to load on a
 * busy small machine, which a site whose admins never use passkeys should not pay at every start.
 */
let library: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => (library ??= import('@simplewebauthn/server'));

/** Sign-in challenges handed out and not yet answered: at most this many (the oldest go first). */
const MAX_OPEN_LOGINS = 10_000;
/**
 * Sign-in challenges one address may hold open at once (a sign-in page asks for one each time it
 * is opened). With it, pushing an admin's pending sign-in out of the 10,000 takes a thousand
 * addresses within five minutes.
 */
export const OPEN_LOGINS_PER_ADDRESS = 10;

type OpenLogin = Ceremony & { address: string };

/** WebAuthn through @simplewebauthn/server: discoverable credentials, user verification preferred. */
export class Passkeys {
  /**
   * Sign-in challenges, kept in memory rather than in a session: whoever opens the sign-in page
   * may ask for one, and that must not write a session row each time. Each is answered once.
   */
  private readonly openLogins = new Map<string, OpenLogin>();
  /** The times of each address's open sign-in challenges, oldest first. */
  private readonly openByAddress = new Map<string, number[]>();

  constructor(
    private readonly repo: SecurityRepo,
    private readonly now: () => number = Date.now,
  ) {}

  private ceremony(rp: RelyingParty, challenge: string): Ceremony {
    return { challenge, rpID: rp.rpID, origin: rp.origin, at: this.now() };
  }

  private live(c: Ceremony | undefined, rp: RelyingParty): Ceremony {
    if (!c || this.now() - c.at > CEREMONY_MS || c.rpID !== rp.rpID || c.origin !== rp.origin) {
      throw new AppError('invalid_input', 'errors.security.passkey_expired');
    }
    return c;
  }

  async registrationOptions(
    rp: RelyingParty,
    rpName: string,
    user: { id: number; username: string; full_name: string },
  ): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; ceremony: Ceremony }> {
    const handle = (await this.repo.handleOf(user.id)) ?? (await this.repo.setHandle(user.id, crypto.randomBytes(32).toString('base64url')));
    const existing = await this.repo.passkeys(user.id);
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName,
      rpID: rp.rpID,
      userName: user.username,
      userDisplayName: user.full_name || user.username,
      userID: new Uint8Array(Buffer.from(handle, 'base64url')),
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports ? (JSON.parse(p.transports) as string[]) : undefined })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'preferred' },
    });
    return { options, ceremony: this.ceremony(rp, options.challenge) };
  }

  /** Checks the browser's answer and stores the new passkey under `name`. */
  async register(rp: RelyingParty, c: Ceremony | undefined, userId: number, response: unknown, name: string): Promise<string> {
    const ceremony = this.live(c, rp);
    if (typeof response !== 'object' || response === null) throw invalid('errors.security.passkey_response_missing');
    let result;
    try {
      result = await (await webauthn()).verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: ceremony.origin,
        expectedRPID: ceremony.rpID,
        requireUserVerification: false,
      });
    } catch (e) {
      log.warn(`A passkey could not be added: ${(e as Error).message}`);
      throw invalid('errors.security.passkey_add_failed');
    }
    if (!result.verified) throw invalid('errors.security.passkey_add_failed');
    const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
    if (await this.repo.passkey(credential.id)) throw new AppError('conflict', 'errors.security.passkey_already_added');
    await this.repo.addPasskey({
      id: credential.id,
      userId,
      publicKey: credential.publicKey,
      counter: credential.counter,
      transports: credential.transports,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
      name,
    });
    return credential.id;
  }

  /**
   * Options for signing in without a username: any passkey of this site may answer. `address`
   * (as http/address.ts counts it) holds at most OPEN_LOGINS_PER_ADDRESS unanswered ones; beyond,
   * rate_limited until its oldest expires.
   */
  async authenticationOptions(rp: RelyingParty, address: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    this.dropExpired();
    const held = this.openByAddress.get(address) ?? [];
    if (held.length >= OPEN_LOGINS_PER_ADDRESS) {
      const wait = Math.max(1, Math.ceil((held[0]! + CEREMONY_MS - this.now()) / 1000));
      throw new AppError('rate_limited', 'errors.security.passkey_too_many', { minutes: Math.ceil(wait / 60) }, { retry_after: wait });
    }
    const options = await (await webauthn()).generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'preferred', allowCredentials: [] });
    const login = { ...this.ceremony(rp, options.challenge), address };
    this.openLogins.set(options.challenge, login);
    this.openByAddress.set(address, [...held, login.at]);
    if (this.openLogins.size > MAX_OPEN_LOGINS) this.forget(this.openLogins.keys().next().value!);
    return options;
  }

  /** Open sign-in challenges past their time go (oldest first, so the first live one ends it). */
  private dropExpired(): void {
    for (const [challenge, c] of this.openLogins) {
      if (this.now() - c.at <= CEREMONY_MS) break;
      this.forget(challenge);
    }
  }

  private forget(challenge: string): OpenLogin | undefined {
    const c = this.openLogins.get(challenge);
    if (!c) return undefined;
    this.openLogins.delete(challenge);
    const held = this.openByAddress.get(c.address) ?? [];
    const i = held.indexOf(c.at);
    if (i >= 0) held.splice(i, 1);
    if (!held.length) this.openByAddress.delete(c.address);
    return c;
  }

  /** Takes a sign-in challenge out of the open ones: true when it was handed out here, for this site, recently. */
  private takeLogin(rp: RelyingParty, challenge: string): boolean {
    const c = this.forget(challenge);
    return c !== undefined && this.now() - c.at <= CEREMONY_MS && c.rpID === rp.rpID && c.origin === rp.origin;
  }

  /** The account whose passkey answered, and which passkey; not_signed_in when it does not check out. */
  async authenticate(rp: RelyingParty, response: unknown): Promise<{ userId: number; passkeyId: string; name: string }> {
    const id = (response as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id.length > 1024) throw invalid('errors.security.passkey_response_missing');
    const stored = await this.repo.passkey(id);
    if (!stored) throw failed();
    let result;
    try {
      result = await (await webauthn()).verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: (challenge) => this.takeLogin(rp, challenge),
        expectedOrigin: rp.origin,
        expectedRPID: rp.rpID,
        credential: {
          id: stored.id,
          publicKey: new Uint8Array(stored.public_key),
          counter: stored.counter,
          transports: stored.transports ? (JSON.parse(stored.transports) as string[]) : undefined,
        },
        requireUserVerification: false,
      });
    } catch {
      throw failed();
    }
    if (!result.verified) throw failed();
    await this.repo.passkeyUsed(stored.id, result.authenticationInfo.newCounter, result.authenticationInfo.credentialBackedUp);
    return { userId: stored.user_id, passkeyId: stored.id, name: stored.name };
  }
}
