/**
 * Every sentence of this feature (passkeys, authenticator codes, two-step sign-in, the audit log,
 * notifications) that a person reads, in one place until the site's message layer takes them
 * over: a key named by place and meaning, the English text with {placeholders}, and plural forms
 * as separate `.one` / `.other` keys. Notifications go out in the wedding's default language.
 */
const MESSAGES = {
  // Signing in
  'signin.code_wrong': 'That code is not right. Please try again.',
  'signin.code_missing': 'Type the code from your authenticator app, or a recovery code.',
  'signin.code_timed_out': 'Your sign-in has timed out. Please enter your password again.',
  'signin.cannot': 'This account cannot sign in.',
  'signin.set_up_first': 'Please add a passkey or turn on authenticator codes before you continue.',
  'signin.too_many_codes': 'Too many wrong codes. Please try again in {minutes} minutes.',
  // Passkeys
  'passkey.unavailable_here': 'Passkeys cannot be used at this address.',
  'passkey.check_failed': 'The passkey could not be checked. Please try again.',
  'passkey.expired': 'This passkey request has expired. Please try again.',
  'passkey.response_missing': 'Send the passkey as "response".',
  'passkey.add_failed': 'The passkey could not be added. Please try again.',
  'passkey.already_added': 'This passkey is already added.',
  'passkey.not_found': 'No such passkey on your account.',
  'passkey.name_missing': 'Give the passkey a name.',
  'passkey.name_too_long': "A passkey's name can be at most {max} characters long.",
  'passkey.default_name': 'Passkey {n}',
  // Authenticator codes
  'two_step.already_on': 'Authenticator codes are already on. Turn them off first to set up a new app.',
  'two_step.not_on': 'Authenticator codes are not on.',
  'two_step.setup_again': 'Start the set-up again: scan a new QR code.',
  'two_step.code_wrong_setup': 'That code is not right. Check the time on your phone and type the code the app shows now.',
  'two_step.keep_one': 'Two-step sign-in is required on this site: keep at least one passkey or authenticator codes.',
  'two_step.require_own_first': 'Add a passkey or turn on authenticator codes for your own account before requiring them for everyone.',
  'users.id_not_number': 'User id must be a number.',
  // Audit log
  'audit.param_invalid': '{name} must be one value of at most 200 characters.',
  // Notification settings
  'notify.settings_not_object': 'notify must be an object with ntfy_url, webhook_url, smtp_url, from and to',
  'notify.settings_unknown': 'Unknown notify setting "{key}"',
  'notify.settings_bad_url': '{key} must be an address such as {example}',
  'notify.settings_bad_from': 'from must be one e-mail address',
  'notify.settings_bad_to': 'to must be e-mail addresses separated by commas',
  'notify.settings_email_incomplete': 'E-mail needs from and to as well as smtp_url',
  'notify.none_configured': 'Turn on at least one way to be notified first: ntfy, a webhook or e-mail.',
  // Why a channel failed (the test's answer and the dashboard)
  'notify.error.timeout': 'no answer within {seconds} s',
  'notify.error.status': 'answered {status} {text}',
  'notify.error.smtp_status': 'the mail server answered {status}',
  // Notifications
  'notify.title_with_couple': '{couple}: {title}',
  'notify.open_link': 'Open: {url}',
  'notify.photos_waiting.title': 'Photos waiting for approval',
  'notify.photos_waiting.one': '1 photo is waiting for your approval.',
  'notify.photos_waiting.other': '{count} photos are waiting for your approval.',
  'notify.messages_waiting.title': 'Guestbook messages waiting',
  'notify.messages_waiting.one': '1 guestbook message is waiting for your approval.',
  'notify.messages_waiting.other': '{count} guestbook messages are waiting for your approval.',
  'notify.storage_80.title': 'Storage is filling up',
  'notify.storage_80.text': 'Photos and videos now take {percent}% of the space set aside for them ({used} of {limit}).',
  'notify.storage_95.title': 'Storage is almost full',
  'notify.storage_95.text':
    'Photos and videos now take {percent}% of the space set aside for them ({used} of {limit}). Guests cannot upload once it is full: free some space or raise the limit.',
  'notify.storage_full.title': 'Uploads refused: no room left',
  'notify.storage_full.one': 'An upload was refused because there is no room left. Free some space or raise the storage limit.',
  'notify.storage_full.other': '{count} uploads were refused because there is no room left. Free some space or raise the storage limit.',
  'notify.processing_failed.title.one': 'A file could not be processed',
  'notify.processing_failed.title.other': 'Files could not be processed',
  'notify.processing_failed.named': '"{filename}" could not be processed. It is kept; the photos page says why.',
  'notify.processing_failed.one': '1 file could not be processed.',
  'notify.processing_failed.other': '{count} files could not be processed. They are kept; the photos page says why.',
  'notify.tool_missing.title': 'A tool is missing',
  'notify.tool_missing.text': '{tool} is not installed, so some files cannot be prepared. They wait until it is installed and the site restarted.',
  'notify.test.title': 'Test message',
  'notify.test.text': 'This is a test from your wedding website: notifications reach you here.',
} as const;

export type MessageKey = keyof typeof MESSAGES;

/** The text of `key` with its {placeholders} filled in. */
export function msg(key: MessageKey, params: Record<string, string | number> = {}): string {
  return MESSAGES[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The `.one` or `.other` form of `key` for `count`. */
export function plural(key: string, count: number, params: Record<string, string | number> = {}): string {
  return msg(`${key}.${count === 1 ? 'one' : 'other'}` as MessageKey, { count, ...params });
}
