import type { Kysely } from 'kysely';
import type { PasskeyInfo } from '../../common/security-types.js';
import type { DB, PasskeyRow } from '../db/schema.js';

export const passkeyRowToInfo = (r: PasskeyRow): PasskeyInfo => ({
  id: r.id,
  name: r.name,
  created_at: r.created_at,
  last_used_at: r.last_used_at,
  backed_up: r.backed_up === 1,
});

export interface NewPasskey {
  id: string;
  userId: number;
  publicKey: Uint8Array;
  counter: number;
  transports: string[] | undefined;
  deviceType: string;
  backedUp: boolean;
  name: string;
}

/** An account's second factors: passkeys, the authenticator secret and recovery codes. */
export class SecurityRepo {
  constructor(private readonly db: Kysely<DB>) {}

  // ---- passkeys ----

  async handleOf(userId: number): Promise<string | undefined> {
    const r = await this.db.selectFrom('webauthn_handles').select('handle').where('user_id', '=', userId).executeTakeFirst();
    return r?.handle;
  }

  /** Keeps the first handle stored for the account (two tabs adding passkeys at once agree on it). */
  async setHandle(userId: number, handle: string): Promise<string> {
    await this.db.insertInto('webauthn_handles').values({ user_id: userId, handle }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
    return (await this.handleOf(userId))!;
  }

  passkeys(userId: number): Promise<PasskeyRow[]> {
    return this.db.selectFrom('passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
  }

  passkey(id: string): Promise<PasskeyRow | undefined> {
    return this.db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async addPasskey(p: NewPasskey): Promise<void> {
    await this.db
      .insertInto('passkeys')
      .values({
        id: p.id,
        user_id: p.userId,
        public_key: p.publicKey,
        counter: p.counter,
        transports: p.transports ? JSON.stringify(p.transports) : null,
        device_type: p.deviceType,
        backed_up: p.backedUp ? 1 : 0,
        name: p.name,
        created_at: new Date().toISOString(),
        last_used_at: null,
      })
      .execute();
  }

  async passkeyUsed(id: string, counter: number, backedUp: boolean): Promise<void> {
    await this.db.updateTable('passkeys').set({ counter, backed_up: backedUp ? 1 : 0, last_used_at: new Date().toISOString() }).where('id', '=', id).execute();
  }

  /** Only the owner's: false when the account has no such passkey. */
  async renamePasskey(userId: number, id: string, name: string): Promise<boolean> {
    const r = await this.db.updateTable('passkeys').set({ name }).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async removePasskey(userId: number, id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('passkeys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }

  // ---- authenticator codes ----

  twoStep(userId: number): Promise<{ secret: string; last_step: number } | undefined> {
    return this.db.selectFrom('two_step').select(['secret', 'last_step']).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Turns codes on with their recovery codes, in one transaction; false when they were on already. */
  async enableTwoStep(userId: number, secret: string, lastStep: number, codeHashes: string[]): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const r = await tx
        .insertInto('two_step')
        .values({ user_id: userId, secret, enabled_at: new Date().toISOString(), last_step: lastStep })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await tx.insertInto('recovery_codes').values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null }))).execute();
      return true;
    });
  }

  /**
   * Accepts a code for `step` only if no code of that step or a later one was accepted before:
   * the update itself decides, so the same code sent twice at once signs in once.
   */
  async acceptStep(userId: number, step: number): Promise<boolean> {
    const r = await this.db.updateTable('two_step').set({ last_step: step }).where('user_id', '=', userId).where('last_step', '<', step).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async disableTwoStep(userId: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await tx.deleteFrom('two_step').where('user_id', '=', userId).execute();
    });
  }

  async replaceRecoveryCodes(userId: number, codeHashes: string[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await tx.insertInto('recovery_codes').values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash, used_at: null }))).execute();
    });
  }

  /** Marks an unused code used; false when there is none (wrong, or used already). */
  async useRecoveryCode(userId: number, codeHash: string): Promise<boolean> {
    const r = await this.db
      .updateTable('recovery_codes')
      .set({ used_at: new Date().toISOString() })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    const r = await this.db
      .selectFrom('recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Whether the account has a passkey or authenticator codes. */
  async hasSecondFactor(userId: number): Promise<{ passkeys: number; twoStep: boolean }> {
    const [p, t] = await Promise.all([
      this.db.selectFrom('passkeys').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow(),
      this.twoStep(userId),
    ]);
    return { passkeys: Number(p.n), twoStep: t !== undefined };
  }

  /** Removes every second factor of an account (an admin helping someone who lost their phone). */
  async resetAll(userId: number): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('passkeys').where('user_id', '=', userId).execute();
      await tx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
      await tx.deleteFrom('two_step').where('user_id', '=', userId).execute();
    });
  }
}
