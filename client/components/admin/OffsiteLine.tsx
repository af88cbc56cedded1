import type { OffsiteStatusView } from '../../../common/offsite-types';
import { offsiteLine } from './offsite-words';
import { t } from './t';

/** The dashboard's one line on the off-site copy (every role), and its problem while it fails. */
export function OffsiteLine({ status }: { status: OffsiteStatusView | undefined }) {
  if (!status?.configured) return null;
  const failing = status.state === 'failing';
  return (
    <p className="offsite-line" data-testid="offsite-line">
      {offsiteLine(status)}
      {failing && (
        <>
          {' '}
          <strong className="offsite-line-problem">{t('admin.offsite.line_failing', { problem: status.last_error?.message ?? '' })}</strong>
        </>
      )}
    </p>
  );
}
