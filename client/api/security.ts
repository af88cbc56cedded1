import type { MeResponse } from '../../common/api-types';
import type {
  AuditResponse,
  ChannelState,
  LoginNextStep,
  NotifyTestResponse,
  PasskeySupport,
  RecoveryCodesResponse,
  SecurityStatus,
  TwoStepSetup,
} from '../../common/security-types';
import { deleteJson, getJson, postJson, request } from './http';

/** /admin/api calls of account security, the audit log and notifications (admin chunk only). */
const A = '/admin/api';

/** What a finished or half-finished sign-in answers. */
export type LoginAnswer = Partial<MeResponse> & Partial<LoginNextStep> & { recovery_codes_left?: number };

export const securityApi = {
  login: (username: string, password: string) => postJson<LoginAnswer>(`${A}/login`, { username, password }),
  loginCode: (code: string) => postJson<LoginAnswer>(`${A}/login/code`, { code }),
  passkeyLoginOptions: () => postJson<{ passkey_support: PasskeySupport; options: unknown }>(`${A}/login/passkey/options`),
  passkeyLogin: (response: unknown) => postJson<LoginAnswer>(`${A}/login/passkey`, { response }),
  passkeySupport: () => getJson<{ passkey_support: PasskeySupport }>(`${A}/login/passkey/support`),

  status: () => getJson<SecurityStatus>(`${A}/security`),
  passkeyOptions: () => postJson<{ options: unknown }>(`${A}/security/passkeys/options`),
  addPasskey: (response: unknown, name: string) => postJson<SecurityStatus>(`${A}/security/passkeys`, { response, ...(name ? { name } : {}) }),
  renamePasskey: (id: string, name: string) => request<SecurityStatus>('PATCH', `${A}/security/passkeys/${encodeURIComponent(id)}`, { name }),
  removePasskey: (id: string) => deleteJson<SecurityStatus>(`${A}/security/passkeys/${encodeURIComponent(id)}`),
  startTwoStep: () => postJson<TwoStepSetup>(`${A}/security/two-step/setup`),
  enableTwoStep: (code: string) => postJson<RecoveryCodesResponse>(`${A}/security/two-step/enable`, { code }),
  disableTwoStep: (code: string) => postJson<SecurityStatus>(`${A}/security/two-step/disable`, { code }),
  newRecoveryCodes: (code: string) => postJson<RecoveryCodesResponse>(`${A}/security/two-step/recovery-codes`, { code }),

  audit: (q: { limit: number; offset: number; user?: string; action?: string }) => {
    const p = new URLSearchParams({ limit: String(q.limit), offset: String(q.offset) });
    if (q.user) p.set('user', q.user);
    if (q.action) p.set('action', q.action);
    return getJson<AuditResponse>(`${A}/audit?${p}`);
  },

  notifyStates: () => getJson<{ channels: ChannelState[] }>(`${A}/notifications`),
  notifyTest: (notify?: unknown) => postJson<NotifyTestResponse>(`${A}/notifications/test`, notify ?? {}),
};

/** The WebAuthn browser library, loaded only when a passkey is used (it is not in any page's first load). */
export const webauthn = () => import('@simplewebauthn/browser');
