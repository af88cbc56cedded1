/**
 * The off-site copy (the couple's own S3-compatible bucket) as the admin pages read and send it:
 * GET/PUT /admin/api/offsite, POST /admin/api/offsite/test and the dashboard's line. Shared by
 * server and client like api-types.ts; the client imports it with `import type` only.
 */

export type OffsiteState = 'off' | 'ok' | 'behind' | 'failing';
export type OffsiteKeepLocal = 'all' | 'derivatives';

/** How the copy fares (any signed-in user may read it). */
export interface OffsiteStatusView {
  configured: boolean;
  state: OffsiteState;
  files_total: number;
  files_copied: number;
  bytes_total: number;
  bytes_copied: number;
  last_copied_at: string | null;
  /** The last failure, `message` one sentence in the reader's language. */
  last_error: { code: string; message: string; at: string } | null;
  database: { last_copy_at: string | null } | null;
  serve: boolean;
  keep_local: OffsiteKeepLocal;
}

/** What the settings form sends (PUT, and "Test connection"); an empty secret keeps the saved one. */
export interface OffsiteForm {
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  access_key_id: string;
  secret_access_key: string;
  force_path_style: boolean;
  serve: boolean;
  keep_local: OffsiteKeepLocal;
  public_url: string;
}

export type OffsiteFormField = keyof OffsiteForm;

/** The settings as the page shows them: never the secret; the fields the server's environment fixes. */
export interface OffsiteSettingsView extends Omit<OffsiteForm, 'secret_access_key'> {
  has_secret: boolean;
  from_env: OffsiteFormField[];
}

/** GET /admin/api/offsite (`settings` for role admin only) and PUT's answer. */
export type OffsiteResponse = OffsiteStatusView & { success: true; settings?: OffsiteSettingsView };

/** POST /admin/api/offsite/test: `message` says in words what failed. */
export type OffsiteTestResponse = { success: true; ok: true } | { success: true; ok: false; problem: string; message: string };
