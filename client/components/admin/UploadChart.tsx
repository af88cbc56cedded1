import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { t } from './t';

function canDraw(): boolean {
  try {
    return !!document.createElement('canvas').getContext('2d');
  } catch {
    return false;
  }
}

interface Day {
  date: string;
  uploads: number;
}

/** SPEC §2: Upload Trends, a line chart of uploads per day over the last 30 days (uPlot). */
export function UploadChart({ data }: { data: Day[] }) {
  const box = useRef<HTMLDivElement>(null);
  const rows = [...data].sort((a, b) => a.date.localeCompare(b.date)).slice(-30);
  // The chart is redrawn only when the numbers change, not on every new array of the same rows.
  const key = JSON.stringify(rows);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const points: Day[] = JSON.parse(key);
    const xs = points.map((r) => Date.parse(r.date.length === 10 ? `${r.date}T12:00:00` : r.date) / 1000);
    const ys = points.map((r) => r.uploads);
    let plot: uPlot | undefined;
    // Without a 2D canvas (an old browser, a test DOM) the text summary below stands alone.
    if (!canDraw()) return;
    try {
      plot = new uPlot(
        {
          width: Math.max(260, el.clientWidth || 600),
          height: 240,
          legend: { show: false },
          cursor: { drag: { x: false, y: false } },
          scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
          axes: [
            { stroke: '#6b6258', grid: { stroke: '#eee7dc' } },
            { stroke: '#6b6258', grid: { stroke: '#eee7dc' }, incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] },
          ],
          series: [{}, { label: t('admin.chart.uploads'), stroke: '#7a8b6f', width: 2, fill: 'rgba(122,139,111,0.15)', points: { size: 5 } }],
        },
        [xs, ys],
        el,
      );
    } catch (err) {
      console.error('Upload chart could not be drawn', err);
    }
    const RO = (globalThis as { ResizeObserver?: typeof ResizeObserver }).ResizeObserver;
    const ro = RO && plot ? new RO(() => plot!.setSize({ width: Math.max(260, el.clientWidth), height: 240 })) : undefined;
    ro?.observe(el);
    return () => {
      ro?.disconnect();
      plot?.destroy();
    };
  }, [key]);

  const total = rows.reduce((s, r) => s + r.uploads, 0);
  return (
    <figure className="upload-chart">
      <div ref={box} className="upload-chart-canvas" role="img" aria-label={t('admin.chart.label', { count: total })} />
      <figcaption className="sr-only">{t('admin.chart.caption', { count: total, days: rows.length })}</figcaption>
    </figure>
  );
}
