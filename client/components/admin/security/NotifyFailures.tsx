import BellOff from 'lucide-react/icons/bell-off';
import type { ChannelState } from '../../../../common/security-types';
import { formatDateTime, t } from '../t';

const NAMES = { ntfy: 'admin.settings.notify_ntfy', webhook: 'admin.settings.notify_webhook', email: 'admin.settings.notify_email' } as const;

/** The dashboard's warning for notification channels whose last try failed (none: nothing shown). */
export function NotifyFailures({ channels }: { channels: ChannelState[] }) {
  if (!channels.length) return null;
  return (
    <section className="alert alert-warning" role="alert" data-testid="notify-failures">
      {channels.map((c) => (
        <p key={c.channel}>
          <BellOff size={18} aria-hidden="true" />{' '}
          <strong>{t('admin.dashboard.notify_failed', { channel: t(NAMES[c.channel]), when: formatDateTime(c.last_error_at) })}</strong> {c.last_error ?? ''}{' '}
          {c.retrying > 0 ? t('admin.dashboard.notify_retrying', { count: c.retrying }) : ''}
        </p>
      ))}
    </section>
  );
}
