import type { ReactNode } from 'react';
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

/** SPEC §2 dashboard: the four photo cards, and the four user cards for can_manage_users. */
export function StatCards({ stats, canManageUsers }: { stats: DashboardStats; canManageUsers: boolean }) {
  const pending = Math.max(0, stats.total_photos - stats.visible_photos);
  const week = stats.uploads_this_week ?? stats.recent_uploads;
  const pct = storagePercent(stats.storage_used, stats.storage_limit);
  const warn = storageWarning(pct);
  const showUsers = canManageUsers && stats.total_users !== undefined;
  return (
    <>
      <section className="stat-grid" aria-label="Photo statistics">
        <StatCard
          testId="stat-total-photos"
          title="Total Photos"
          value={stats.total_photos}
          icon={<Images size={20} />}
          description={<span className="stat-trend">+{week} this week</span>}
        />
        <StatCard
          testId="stat-visible-photos"
          title="Visible Photos"
          value={stats.visible_photos}
          icon={<Eye size={20} />}
          description={`${pending} pending approval`}
        />
        <StatCard
          testId="stat-recent-uploads"
          title="Recent Uploads"
          value={stats.recent_uploads}
          icon={<Upload size={20} />}
          description="Last 7 days"
        />
        <StatCard
          testId="stat-storage"
          title="Storage Used"
          value={stats.storage_used == null ? 'N/A' : formatBytes(stats.storage_used, true)}
          icon={<HardDrive size={20} />}
          warning={warn}
          description={pct === null ? 'N/A' : `${pct.toFixed(1)}% of limit`}
        />
      </section>
      {showUsers && (
        <section className="stat-grid" aria-label="User statistics">
          <StatCard testId="stat-total-users" title="Total Users" value={stats.total_users ?? 0} icon={<Users size={20} />} />
          <StatCard testId="stat-active-users" title="Active Users" value={stats.active_users ?? 0} icon={<UserCheck size={20} />} />
          <StatCard testId="stat-admin-users" title="Admin Users" value={stats.admin_users ?? 0} icon={<Shield size={20} />} />
          <StatCard testId="stat-family-users" title="Family Users" value={stats.family_users ?? 0} icon={<Heart size={20} />} />
        </section>
      )}
    </>
  );
}
