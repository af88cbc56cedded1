import Upload from 'lucide-react/icons/upload';
import LogIn from 'lucide-react/icons/log-in';
import CircleCheck from 'lucide-react/icons/circle-check';
import UserPlus from 'lucide-react/icons/user-plus';
import ActivityIcon from 'lucide-react/icons/activity';
import type { ActivityItem } from '../../../common/api-types';
import { formatDate } from './format';
import { t } from './t';

const ICONS = { upload: Upload, login: LogIn, approval: CircleCheck, user_created: UserPlus, other: ActivityIcon } as const;

export function activityIcon(type: string) {
  return ICONS[type as keyof typeof ICONS] ?? ICONS.other;
}

/** SPEC §2: scrollable list, an icon per type, description, timestamp, optional user name. */
export function RecentActivity({ items }: { items: ActivityItem[] }) {
  if (items.length === 0) return <p className="muted">{t('admin.activity.empty')}</p>;
  return (
    <ul className="activity-list" tabIndex={0} aria-label={t('admin.dashboard.activity')}>
      {items.map((a) => {
        const Icon = activityIcon(a.type);
        const type = a.type in ICONS ? a.type : 'other';
        return (
          <li key={a.id} className={`activity-item activity-${type}`} data-type={type}>
            <span className="activity-icon" aria-hidden="true">
              <Icon size={18} />
            </span>
            <div className="activity-body">
              <div className="activity-description" dir="auto">
                {a.description}
              </div>
              <div className="activity-meta muted">
                <time dateTime={a.timestamp}>{formatDate(a.timestamp)}</time>
                {a.user_name && !a.description.startsWith(`${a.user_name} `) && <span className="activity-user"> · {a.user_name}</span>}
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
