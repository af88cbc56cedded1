/**
 * What the admin screens for account security, the audit log and notifications read and send.
 * Shared by server and client like api-types.ts (the client imports it with `import type` only).
 */

import type { GalleryPagination } from './api-types.js';

// ---- Audit log ----

/** One recorded admin action or sign-in. */
export interface AuditEntry {
  id: number;
  /** ISO 8601. */
  at: string;
  user_id: number | null;
  /** The account's name at the time, or the name typed at a failed sign-in. */
  username: string | null;
  /** "photo.approve", "sign_in.failed", "passkey.add" ... */
  action: string;
  ids: string[];
  detail: Record<string, unknown> | null;
  /** The client address the request came from. */
  address: string | null;
}

/** GET /admin/api/audit?limit&offset&user&action (role admin only). */
export interface AuditResponse {
  success: true;
  entries: AuditEntry[];
  pagination: GalleryPagination;
  /** Every action the log holds, for the filter. */
  actions: string[];
}

// ---- Signing in with a second step ----

/** POST /admin/api/login when the password was right but the sign-in is not finished yet. */
export interface LoginNextStep {
  success: true;
  /** Type the authenticator code (or a recovery code) at POST /admin/api/login/code. */
  needs_code?: true;
  /** two-step sign-in is required and this account has only a passkey: sign in with it. */
  needs_passkey?: true;
  /** two-step sign-in is required and this account has neither: set one up on /admin/security first. */
  needs_setup?: true;
}

/** Why the passkey button is not offered at this address. */
export type PasskeyUnavailable = 'insecure' | 'other_address';

/** Where passkeys can be used: the relying party, or why not here. */
export interface PasskeySupport {
  available: boolean;
  reason: PasskeyUnavailable | null;
  /** The relying party id (a host name). */
  rp_id: string | null;
  /** PUBLIC_URL when passkeys work there and not at this address. */
  use_at: string | null;
}

export interface PasskeyInfo {
  id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  /** Synced between devices (iCloud Keychain, Google Password Manager ...). */
  backed_up: boolean;
}

/** GET /admin/api/security: the signed-in account's sign-in methods. */
export interface SecurityStatus {
  success: true;
  passkeys: PasskeyInfo[];
  two_step: { enabled: boolean; recovery_codes_left: number };
  /** An admin requires every account to have a passkey or authenticator codes. */
  require_two_step: boolean;
  /** This session may do nothing else until a passkey or codes are set up. */
  setup_required: boolean;
  passkey_support: PasskeySupport;
}

/** POST /admin/api/security/two-step/setup: the secret to scan, not yet turned on. */
export interface TwoStepSetup {
  success: true;
  secret: string;
  otpauth_url: string;
  /** The QR code as an SVG document. */
  qr_svg: string;
}

/** Turning codes on, or making new recovery codes: shown once. */
export interface RecoveryCodesResponse {
  success: true;
  recovery_codes: string[];
}

// ---- Notifications ----

export type NotifyEvent =
  | 'photos_waiting'
  | 'messages_waiting'
  | 'storage_80'
  | 'storage_95'
  | 'storage_full'
  | 'processing_failed'
  | 'tool_missing'
  | 'offsite_failing'
  | 'test';

export type NotifyChannel = 'ntfy' | 'webhook' | 'email';

/**
 * Settings `notify`. In GET answers the secrets (a password in smtp_url, the path and query of
 * the ntfy and webhook addresses, where their tokens live) are masked; a PUT that sends a masked
 * value back unchanged keeps the stored one.
 */
export interface NotifySettings {
  /** e.g. https://ntfy.sh/our-wedding-7f3k */
  ntfy_url: string | null;
  /** Receives POST JSON {event, text, count, url}. */
  webhook_url: string | null;
  /** smtp://user:password@mail.example.com:587 or smtps://... */
  smtp_url: string | null;
  from: string | null;
  /** One address or several, separated by commas. */
  to: string | null;
}

/** The body a webhook receives. */
export interface WebhookBody {
  event: NotifyEvent;
  text: string;
  count: number | null;
  url: string | null;
}

/** How one channel fares: shown on the dashboard while it fails. */
export interface ChannelState {
  channel: NotifyChannel;
  ok: boolean;
  last_error: string | null;
  last_error_at: string | null;
  last_sent_at: string | null;
  /** Messages waiting to be tried again. */
  retrying: number;
}

/** POST /admin/api/notifications/test */
export interface NotifyTestResponse {
  success: true;
  results: { channel: NotifyChannel; ok: boolean; error: string | null }[];
}

/** The admin-only settings of this feature: never in the public GET /api/settings. */
export interface AccountSettings {
  /** Every account needs a passkey or authenticator codes to sign in. */
  require_two_step: boolean;
  notify: NotifySettings;
}
