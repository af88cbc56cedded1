import { t } from './t';
/** SPEC §2: Camera Usage pie with name and percentage labels, five-colour palette. */
export const PIE_COLORS = ['#7a8b6f', '#b08d57', '#c47a7a', '#6f8bb0', '#9b7ab0'] as const;

export interface PieSlice {
  name: string;
  value: number;
  percent: number;
  label: string;
  color: string;
  path: string;
}

const R = 90;
const C = 100;

function point(angle: number): string {
  // Angles start at 12 o'clock and run clockwise.
  const a = angle - Math.PI / 2;
  return `${(C + R * Math.cos(a)).toFixed(3)} ${(C + R * Math.sin(a)).toFixed(3)}`;
}

export function pieSlices(data: { name: string; value: number }[]): PieSlice[] {
  const rows = data.filter((d) => d.value > 0);
  const total = rows.reduce((s, d) => s + d.value, 0);
  if (total === 0) return [];
  let start = 0;
  return rows.map((d, i) => {
    const share = d.value / total;
    const end = start + share * 2 * Math.PI;
    const large = end - start > Math.PI ? 1 : 0;
    // A single full slice cannot be drawn as an arc (start = end); it becomes two half arcs.
    const path =
      share >= 0.999999
        ? `M ${point(0)} A ${R} ${R} 0 1 1 ${point(Math.PI)} A ${R} ${R} 0 1 1 ${point(0)} Z`
        : `M ${C} ${C} L ${point(start)} A ${R} ${R} 0 ${large} 1 ${point(end)} Z`;
    start = end;
    const percent = share * 100;
    return {
      name: d.name,
      value: d.value,
      percent,
      label: `${d.name} ${percent.toFixed(0)}%`,
      color: PIE_COLORS[i % PIE_COLORS.length],
      path,
    };
  });
}

export function CameraPie({ data }: { data: { name: string; value: number }[] }) {
  const slices = pieSlices(data);
  if (slices.length === 0) return <p className="muted">{t('admin.pie.empty')}</p>;
  return (
    <div className="camera-pie">
      <svg viewBox="0 0 200 200" role="img" aria-label={t('admin.dashboard.cameras')} className="camera-pie-svg">
        {slices.map((s) => (
          <path key={s.name} d={s.path} fill={s.color} stroke="#fff" strokeWidth="1.5">
            <title>{s.label}</title>
          </path>
        ))}
      </svg>
      <ul className="camera-pie-legend">
        {slices.map((s) => (
          <li key={s.name}>
            <span className="camera-pie-swatch" style={{ background: s.color }} aria-hidden="true" />
            <span className="camera-pie-label">{s.label}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
