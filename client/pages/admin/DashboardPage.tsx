import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import Images from 'lucide-react/icons/images';
import Users from 'lucide-react/icons/users';
import Settings from 'lucide-react/icons/settings';
import Monitor from 'lucide-react/icons/monitor';
import QrCode from 'lucide-react/icons/qr-code';
import type { Dashboard } from '../../../common/api-types';
import { adminApi } from '../../api/admin';
import { handleUnauthorized, me, permissionsOf } from '../../state/admin';
import { ErrorCard } from '../../components/admin/AdminShell';
import { Card } from '../../components/admin/Card';
import { StatCards } from '../../components/admin/StatCards';
import { UploadChart } from '../../components/admin/UploadChart';
import { CameraPie } from '../../components/admin/CameraPie';
import { RecentActivity } from '../../components/admin/RecentActivity';
import { TopContributors } from '../../components/admin/TopContributors';
import { deletePhotoConfirm, RecentPhotos } from '../../components/admin/RecentPhotos';
import { ChallengeCounts } from '../../components/admin/ChallengeCounts';
import { ExportButtons } from '../../components/admin/ExportButtons';
import { DayStatus } from '../../components/admin/WallPauseButton';
import { useWalls, WallsStatus } from '../../components/admin/WallsStatus';
import { TableCounts } from '../../components/admin/TableCounts';
import { t } from '../../components/admin/t';
import { MissingTools } from '../../components/admin/MissingTools';
import { FaceSearchCard } from '../../components/admin/FaceSearchCard';
import { NotifyFailures } from '../../components/admin/security/NotifyFailures';
import { OffsiteLine } from '../../components/admin/OffsiteLine';
import { BoothsCard } from '../../components/admin/BoothsCard';

/** SPEC §9: the dashboard reloads every 30 s. */
export const DASHBOARD_REFRESH_MS = 30_000;

export function DashboardSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label={t('admin.dashboard.loading')} className="dashboard-skeleton">
      <div className="skeleton" style={{ height: '2.5rem', width: '60%' }} />
      <div className="stat-grid">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className="skeleton" style={{ height: '7rem' }} />
        ))}
      </div>
      <div className="dashboard-charts">
        <div className="skeleton" style={{ height: '16rem' }} />
        <div className="skeleton" style={{ height: '16rem' }} />
      </div>
    </div>
  );
}

export function DashboardPage() {
  useSignals();
  const [, setLocation] = useLocation();
  const [data, setData] = useState<Dashboard | null>(null);
  const [error, setError] = useState(false);
  const hasData = useRef(false);
  const walls = useWalls();

  const load = useCallback(async () => {
    try {
      const d = await adminApi.dashboard();
      hasData.current = true;
      setData(d);
      setError(false);
    } catch (err) {
      if (handleUnauthorized(err)) return;
      console.error('Failed to load dashboard data', err);
      // A failed background refresh keeps the figures already shown.
      if (!hasData.current) setError(true);
    }
  }, []);

  useEffect(() => {
    void load();
    const t = setInterval(() => void load(), DASHBOARD_REFRESH_MS);
    return () => clearInterval(t);
  }, [load]);

  const retry = () => {
    setError(false);
    void load();
  };

  const onPhotoAction = async (id: string, action: 'approve' | 'hide' | 'delete') => {
    if (action === 'delete' && !window.confirm(deletePhotoConfirm())) return;
    try {
      if (action === 'delete') await adminApi.deletePhoto(id);
      else await adminApi.photoAction(id, action);
      await load();
    } catch (err) {
      // SPEC §8: dashboard card actions fail silently.
      if (!handleUnauthorized(err)) console.error(`Dashboard ${action} failed`, err);
    }
  };

  if (error) return <ErrorCard message={t('admin.dashboard.load_failed')} onRetry={retry} />;
  if (!data) return <DashboardSkeleton />;

  const perms = { ...permissionsOf(me.value), ...data.user_permissions };
  const user = me.value?.user;
  const name = user?.full_name || user?.username;
  const showSettings = perms.can_edit_settings;

  const openWall = () => {
    // The wall is meant for a screen at the reception: ask for full screen on the way there.
    document.documentElement.requestFullscreen?.().catch(() => undefined);
    setLocation('~/wall');
  };

  return (
    <div className="dashboard">
      <div className="dashboard-head">
        <h1>{name ? t('admin.dashboard.welcome_name', { name }) : t('admin.dashboard.welcome')}</h1>
        <div className="dashboard-actions">
          <Link href="/photos" className="btn">
            <Images size={18} aria-hidden="true" />
            {t('admin.dashboard.manage_photos')}
          </Link>
          {perms.can_manage_users && (
            <Link href="/users" className="btn btn-outline">
              <Users size={18} aria-hidden="true" />
              {t('admin.dashboard.manage_users')}
            </Link>
          )}
          {showSettings && (
            <Link href="/settings" className="btn btn-outline">
              <Settings size={18} aria-hidden="true" />
              {t('admin.dashboard.settings')}
            </Link>
          )}
          <a
            href="/wall"
            className="btn btn-outline"
            onClick={(e) => {
              e.preventDefault();
              openWall();
            }}
          >
            <Monitor size={18} aria-hidden="true" />
            {t('admin.dashboard.wall')}
          </a>
          <Link href="/qr" className="btn btn-outline">
            <QrCode size={18} aria-hidden="true" />
            {t('admin.dashboard.qr')}
          </Link>
          <ExportButtons />
        </div>
      </div>

      <MissingTools tools={data.missing_tools ?? []} />
      <NotifyFailures channels={data.notify_failures ?? []} />
      <OffsiteLine status={data.offsite} />

      <DayStatus canEdit={perms.can_edit_settings} />
      <section className="card day-controls" aria-label={t('admin.remote.title')}>
        <WallsStatus walls={walls} withLink />
      </section>

      <FaceSearchCard canEdit={perms.can_edit_settings} isAdmin={perms.is_admin} />

      <StatCards stats={data.stats} canManageUsers={perms.can_manage_users} />

      <div className="dashboard-charts">
        <Card title={t('admin.dashboard.trends')}>
          <UploadChart data={data.chart_data.uploads_by_day} />
        </Card>
        <Card title={t('admin.dashboard.cameras')}>
          <CameraPie data={data.chart_data.camera_stats} />
        </Card>
      </div>

      <ChallengeCounts items={data.challenge_counts} />
      <TableCounts />
      <BoothsCard />

      <div className="dashboard-lists">
        <Card title={t('admin.dashboard.activity')}>
          <RecentActivity items={data.recent_activity} />
          <h3 className="contributors-title">{t('admin.dashboard.contributors')}</h3>
          <TopContributors items={data.top_contributors} />
        </Card>
        <Card title={t('admin.dashboard.recent_photos')}>
          <RecentPhotos
            photos={data.recent_photos}
            total={data.stats.total_photos}
            canDelete={perms.can_delete_photos}
            onAction={(id, a) => void onPhotoAction(id, a)}
          />
        </Card>
      </div>
    </div>
  );
}
