import type { ReactNode } from 'react';
import { Link } from 'wouter';
import Images from 'lucide-react/icons/images';
import Eye from 'lucide-react/icons/eye';
import Upload from 'lucide-react/icons/upload';
import HardDrive from 'lucide-react/icons/hard-drive';
import Users from 'lucide-react/icons/users';
import UserCheck from 'lucide-react/icons/user-check';
import Shield from 'lucide-react/icons/shield';
import Heart from 'lucide-react/icons/heart';
import type { DashboardStats } from '../../../common/api-types';
import { formatBytes, storagePercent, storageWarning } from './format';
import { formatNumber, t } from './t';

interface CardProps {
  title: string;
  value: ReactNode;
  description?: ReactNode;
  icon: ReactNode;
  warning?: boolean;
  testId: string;
}

function StatCard({ title, value, description, icon, warning, testId }: CardProps) {
  return (
    <div className={`card stat-card${warning ? ' stat-card-warning' : ''}`} data-testid={testId}>
      <div className="stat-card-head">
        <h3 className="stat-card-title">{title}</h3>
        <span className="stat-card-icon" aria-hidden="true">
          {icon}
        </span>
      </div>
      <div className="stat-card-value">{value}</div>
      {description && <div className="stat-card-description">{description}</div>}
    </div>
  );
}

const n = (v: number) => formatNumber(v);

/** SPEC §2 dashboard: the four photo cards (with the guestbook messages waiting beside the photos), and the four user cards for can_manage_users. */
export function StatCards({ stats, canManageUsers }: { stats: DashboardStats; canManageUsers: boolean }) {
  const pending = Math.max(0, stats.total_photos - stats.visible_photos);
  const week = stats.uploads_this_week ?? stats.recent_uploads;
  const pct = storagePercent(stats.storage_used, stats.storage_limit);
  const warn = storageWarning(pct);
  const showUsers = canManageUsers && stats.total_users !== undefined;
  return (
    <>
      <section className="stat-grid" aria-label={t('admin.stats.photos_label')}>
        <StatCard
          testId="stat-total-photos"
          title={t('admin.stats.total_photos')}
          value={n(stats.total_photos)}
          icon={<Images size={20} />}
          description={<span className="stat-trend">{t('admin.stats.this_week', { count: week })}</span>}
        />
        <StatCard
          testId="stat-visible-photos"
          title={t('admin.stats.visible_photos')}
          value={n(stats.visible_photos)}
          icon={<Eye size={20} />}
          description={
            <>
              <div>{t('admin.stats.pending', { count: pending })}</div>
              {/* Guestbook messages wait for the same approval, counted beside the photos. */}
              <div data-testid="stat-pending-guestbook">
                <Link href="/guestbook">{t('admin.guestbook.pending', { count: stats.pending_guestbook })}</Link>
              </div>
            </>
          }
        />
        <StatCard
          testId="stat-recent-uploads"
          title={t('admin.stats.recent_uploads')}
          value={n(stats.recent_uploads)}
          icon={<Upload size={20} />}
          description={t('admin.stats.last_7_days')}
        />
        <StatCard
          testId="stat-storage"
          title={t('admin.stats.storage')}
          value={stats.storage_used == null ? t('admin.stats.na') : formatBytes(stats.storage_used, true)}
          icon={<HardDrive size={20} />}
          warning={warn}
          description={pct === null ? t('admin.stats.na') : t('admin.stats.of_limit', { percent: formatNumber(pct, 1) })}
        />
      </section>
      {showUsers && (
        <section className="stat-grid" aria-label={t('admin.stats.users_label')}>
          <StatCard testId="stat-total-users" title={t('admin.stats.total_users')} value={n(stats.total_users ?? 0)} icon={<Users size={20} />} />
          <StatCard testId="stat-active-users" title={t('admin.stats.active_users')} value={n(stats.active_users ?? 0)} icon={<UserCheck size={20} />} />
          <StatCard testId="stat-admin-users" title={t('admin.stats.admin_users')} value={n(stats.admin_users ?? 0)} icon={<Shield size={20} />} />
          <StatCard testId="stat-family-users" title={t('admin.stats.family_users')} value={n(stats.family_users ?? 0)} icon={<Heart size={20} />} />
        </section>
      )}
    </>
  );
}
