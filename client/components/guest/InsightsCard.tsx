import type { Stats } from '../../../common/api-types';
import Camera from 'lucide-react/icons/camera';
import Smartphone from 'lucide-react/icons/smartphone';

const TOP_CAMERAS = 4;

/** SPEC §2 collection insights: hidden at 0 photos; videos only when > 0; top 4 cameras. */
export function InsightsCard({ stats }: { stats: Stats }) {
  if (!stats.total_photos) return null;
  const top = stats.cameras.slice(0, TOP_CAMERAS);
  const more = stats.cameras.length - top.length;
  return (
    <section className="card insights" aria-labelledby="insights-title">
      <h2 id="insights-title">Collection Insights</h2>
      <dl className="insights-figures">
        <div>
          <dt>Total shared</dt>
          <dd data-testid="insights-size">{stats.total_size_mb.toFixed(1)} MB</dd>
        </div>
        <div>
          <dt>Photos</dt>
          <dd data-testid="insights-images">{stats.media_breakdown.images}</dd>
        </div>
        {stats.media_breakdown.videos > 0 && (
          <div>
            <dt>Videos</dt>
            <dd data-testid="insights-videos">{stats.media_breakdown.videos}</dd>
          </div>
        )}
        <div>
          <dt>Unique devices</dt>
          <dd data-testid="insights-devices">{stats.unique_devices}</dd>
        </div>
      </dl>
      {top.length > 0 && (
        <>
          <h3 className="insights-subtitle">
            <Camera aria-hidden="true" size={18} /> Top cameras
          </h3>
          <ul className="insights-cameras">
            {top.map((c) => (
              <li key={c.name}>
                <span className="camera-name">
                  <Smartphone aria-hidden="true" size={16} /> {c.name}
                </span>
                <span className="camera-count">{c.count}</span>
              </li>
            ))}
          </ul>
          {more > 0 && <p className="insights-more muted">+{more} more devices</p>}
        </>
      )}
    </section>
  );
}
