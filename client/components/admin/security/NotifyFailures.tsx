import BellOff from 'lucide-react/icons/bell-off';
import type { ChannelState } from '../../../../common/security-types';
import { WarningLine } from '../MissingTools';
import { formatDateTime, t } from '../t';

/** The channels' names, as the settings call them. */
export const CHANNEL_NAMES = { ntfy: 'admin.settings.notify_ntfy', webhook: 'admin.settings.notify_webhook', email: 'admin.settings.notify_email' } as const;

/** The dashboard's warning for notification channels whose last try failed (none: nothing shown). */
export function NotifyFailures({ channels }: { channels: ChannelState[] }) {
  if (!channels.length) return null;
  return (
    <section className="alert alert-warning" role="alert" data-testid="notify-failures">
      {channels.map((c) => (
        <WarningLine key={c.channel} icon={BellOff} problem={t('admin.dashboard.notify_failed', { channel: t(CHANNEL_NAMES[c.channel]), when: formatDateTime(c.last_error_at) })}>
          {c.last_error ?? ''} {c.retrying > 0 ? t('admin.dashboard.notify_retrying', { count: c.retrying }) : ''}
        </WarningLine>
      ))}
    </section>
  );
}
