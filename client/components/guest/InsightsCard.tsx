import type { Stats } from '../../../common/api-types';
import Camera from 'lucide-react/icons/camera';
import Smartphone from 'lucide-react/icons/smartphone';
import { t } from '../../i18n';
import { formatNumber } from '../../i18n/format';

const TOP_CAMERAS = 4;

/** SPEC §2 collection insights: hidden at 0 photos; videos only when > 0; top 4 cameras. */
export function InsightsCard({ stats }: { stats: Stats }) {
  if (!stats.total_photos) return null;
  const top = stats.cameras.slice(0, TOP_CAMERAS);
  const more = stats.cameras.length - top.length;
  return (
    <section className="card insights" aria-labelledby="insights-title">
      <h2 id="insights-title">{t('live.insights.title')}</h2>
      <dl className="insights-figures">
        <div>
          <dt>{t('live.insights.total')}</dt>
          <dd data-testid="insights-size">{t('format.size.mb', { size: formatNumber(stats.total_size_mb, 1) })}</dd>
        </div>
        <div>
          <dt>{t('live.insights.photos')}</dt>
          <dd data-testid="insights-images">{formatNumber(stats.media_breakdown.images)}</dd>
        </div>
        {stats.media_breakdown.videos > 0 && (
          <div>
            <dt>{t('live.insights.videos')}</dt>
            <dd data-testid="insights-videos">{formatNumber(stats.media_breakdown.videos)}</dd>
          </div>
        )}
        <div>
          <dt>{t('live.insights.devices')}</dt>
          <dd data-testid="insights-devices">{formatNumber(stats.unique_devices)}</dd>
        </div>
      </dl>
      {top.length > 0 && (
        <>
          <h3 className="insights-subtitle">
            <Camera aria-hidden="true" size={18} /> {t('live.insights.top_cameras')}
          </h3>
          <ul className="insights-cameras">
            {top.map((c) => (
              <li key={c.name}>
                <span className="camera-name">
                  <Smartphone aria-hidden="true" size={16} /> <bdi>{c.name}</bdi>
                </span>
                <span className="camera-count">{formatNumber(c.count)}</span>
              </li>
            ))}
          </ul>
          {more > 0 && <p className="insights-more muted">{t('live.insights.more_devices', { count: more })}</p>}
        </>
      )}
    </section>
  );
}
