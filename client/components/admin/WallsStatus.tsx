import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { WallsResponse } from '../../../common/api-types';
import { wallRemote } from './wall-remote-api';
import { formatDateTime, t } from './t';

/** Asks for the open walls every `everyMs` while shown. */
export function useWalls(everyMs = 10_000): WallsResponse | null {
  const [walls, setWalls] = useState<WallsResponse | null>(null);
  useEffect(() => {
    let live = true;
    const look = () =>
      wallRemote
        .walls()
        .then((r) => live && setWalls(r))
        .catch(() => undefined);
    void look();
    const timer = setInterval(look, everyMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [everyMs]);
  return walls;
}

/** What one wall shows, in words. */
function wallState(w: WallsResponse['walls'][number]): string {
  if (w.lost) return t('admin.remote.lost', { time: formatDateTime(w.last_seen, { timeStyle: 'short' }) });
  if (w.blank) return t('admin.remote.state_curtain');
  if (w.paused) return t('admin.remote.state_paused');
  return w.showing ? t('admin.remote.state_photo') : t('admin.remote.state_other');
}

/** "2 walls connected", and what each shows (a lost one: since when); with a link to the remote on the dashboard. */
export function WallsStatus({ walls, withLink = false }: { walls: WallsResponse | null; withLink?: boolean }) {
  if (!walls) return null;
  return (
    <div className="walls-status" data-testid="walls-status">
      <p className="walls-count" aria-live="polite">
        <strong>{t('admin.remote.walls', { count: walls.connected })}</strong>
        {withLink && (
          <>
            {' '}
            <Link href="/remote">{t('admin.remote.open')}</Link>
          </>
        )}
      </p>
      {walls.walls.length > 0 && (
        <ul className="walls-list">
          {walls.walls.map((w, i) => (
            <li key={w.id} data-lost={w.lost} data-testid="wall-seen">
              <span className="walls-name">{t('admin.remote.wall_label', { number: i + 1 })}</span>
              {w.showing && !w.lost && !w.blank && !w.paused && <img src={`/media/${w.showing}/thumb`} alt="" width={40} height={40} />}
              <span className={w.lost ? 'walls-lost' : undefined}>{wallState(w)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
