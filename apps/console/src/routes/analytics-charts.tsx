/**
 * The analytics page's charts (issue 31), drawn by hand: SVG columns for a series and HTML bars
 * for a breakdown. Why no charting library: the ones that draw accessible SVG (Recharts, Nivo,
 * Victory) add 100–200 kB of script to a page whose charts are bars; Chart.js draws on a canvas a
 * screen reader cannot read. These are a few hundred lines, no dependency, and every chart is
 * decorative beside the table that says the same (each chart names its table; each bar has a
 * <title> tooltip), so the table is what assistive technology reads.
 */
import type { ReactNode } from 'react';

export interface SeriesBar {
  label: string;
  value: number;
  previous?: number;
  text: string;
}

/** Columns of a series (sales per day/week/month), the previous period as an outline behind each. */
export function ColumnChart({ bars, title, tableId }: { bars: SeriesBar[]; title: string; tableId: string }) {
  const max = Math.max(1, ...bars.flatMap((b) => [b.value, b.previous ?? 0]));
  const w = 600;
  const h = 180;
  const step = w / Math.max(1, bars.length);
  const bw = Math.max(1, step * 0.7);
  const every = Math.ceil(bars.length / 8);
  return (
    <figure className="m-0">
      <svg viewBox={`0 0 ${w} ${h + 24}`} className="h-auto w-full" role="img" aria-label={`${title}. The same figures are in the table below.`} aria-describedby={tableId}>
        <line x1={0} y1={h} x2={w} y2={h} stroke="#57534e" strokeWidth={1} />
        {bars.map((b, i) => {
          const x = i * step + (step - bw) / 2;
          const bh = (b.value / max) * (h - 6);
          const ph = b.previous != null ? (b.previous / max) * (h - 6) : 0;
          return (
            <g key={b.label}>
              <title>{b.text}</title>
              {b.previous != null && <rect x={x} y={h - ph} width={bw} height={ph} fill="none" stroke="#78716c" strokeWidth={1.5} strokeDasharray="3 2" />}
              <rect x={x + bw * 0.15} y={h - bh} width={bw * 0.7} height={bh} fill="#047857" />
              {i % every === 0 && (
                <text x={x + bw / 2} y={h + 16} fontSize={12} textAnchor="middle" fill="#44403c">
                  {b.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

export interface BreakdownBar {
  key: string;
  label: string;
  value: number;
  previous?: number;
  text: ReactNode;
}

/** Horizontal bars of a breakdown's largest rows; the whole list is the table below it. */
export function BarList({ bars, title, tableId }: { bars: BreakdownBar[]; title: string; tableId: string }) {
  const max = Math.max(1, ...bars.flatMap((b) => [b.value, b.previous ?? 0]));
  return (
    <div role="img" aria-label={`${title}. The same figures are in the table below.`} aria-describedby={tableId}>
      <ul className="m-0 list-none space-y-1 p-0" aria-hidden="true">
        {bars.map((b) => (
          <li key={b.key} className="grid grid-cols-[minmax(6rem,10rem)_1fr_auto] items-center gap-2 text-sm" title={`${b.label}: ${typeof b.text === 'string' ? b.text : ''}`}>
            <span className="truncate">{b.label}</span>
            <span className="relative block h-4">
              {b.previous != null && <span className="absolute inset-y-0 left-0 border border-dashed border-stone-500" style={{ width: `${(b.previous / max) * 100}%` }} />}
              <span className="absolute inset-y-[3px] left-0 bg-emerald-700" style={{ width: `${(b.value / max) * 100}%` }} />
            </span>
            <span className="tabular-nums">{b.text}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
