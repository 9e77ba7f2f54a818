// The utilisation heatmap: used device time over capacity (cluster x model)
// or over held (team x day), per cell, as a percentage. The demo's fleet is
// used a thousandth of a percent over months, so the percentage keeps its
// small digits (a floor to 0.1 % showed every cell as 0), the labels say
// "%", and the colour scale ends at the highest cell rather than at 100 %:
// the busiest cell is always the darkest, however low it is.
import type { EChartsCoreOption } from 'echarts/core';
import { HEAT_SCALE } from '../../components/palette';
import { big } from '../../format/numbers';
import type { CapacitySeries, CapacitySeriesGroup } from '../../api/types';
import { bucketTimes } from './capacityChart';

export interface HeatCell {
  x: string;
  y: string;
  // used / base as a percentage (to 10 decimals), or null when base is zero.
  percent: number | null;
}

// Utilisation per (x, y): used over capacity (by cluster x model) or over
// held (team x day, where capacity is not attributed to teams).
// A bucket where the group has no data (all three figures 0) makes no cell,
// as the API leaves such buckets out of its BUCKETS layout. Sums are exact
// (BigInt); only the percentage is a float.
export function heatCells(
  series: CapacitySeries,
  x: (group: CapacitySeriesGroup, startMs: number) => string,
  y: (group: CapacitySeriesGroup) => string,
  base: 'capacity' | 'held',
): HeatCell[] {
  const times = bucketTimes(series);
  const sums = new Map<string, { x: string; y: string; used: bigint; base: bigint }>();
  for (const group of series.groups ?? []) {
    const capacity = group.capacityMilliSeconds ?? [];
    const held = group.heldMilliSeconds ?? [];
    const used = group.usedMilliSeconds ?? [];
    for (let i = 0; i < times.length; i++) {
      const [c, h, u] = [big(capacity[i]), big(held[i]), big(used[i])];
      if (c === 0n && h === 0n && u === 0n) continue;
      const cx = x(group, times[i]!);
      const cy = y(group);
      const key = `${cx}\u0000${cy}`;
      const cell = sums.get(key) ?? { x: cx, y: cy, used: 0n, base: 0n };
      cell.used += u;
      cell.base += base === 'capacity' ? c : h;
      sums.set(key, cell);
    }
  }
  // The ratio in units of 10^-12 (exact up to there), then as a percentage.
  return [...sums.values()].map((c) => ({
    x: c.x,
    y: c.y,
    percent: c.base === 0n ? null : Number((c.used * 1_000_000_000_000n) / c.base) / 10_000_000_000,
  }));
}

// A percentage with two significant digits ("45%", "3.2%", "0.0021%"), at
// most six decimals: no cell that was used at all reads as 0.
export function formatShare(percent: number): string {
  if (percent === 0) return '0%';
  if (percent < 0.000001) return '<0.000001%';
  if (percent >= 10) return `${Math.round(percent)}%`;
  const decimals = Math.min(6, Math.max(1, 1 - Math.floor(Math.log10(percent))));
  return `${Number(percent.toFixed(decimals)).toFixed(decimals).replace(/\.?0+$/, '')}%`;
}

// The top of the colour scale: the highest cell (a scale to 100 % left the
// demo's cells all the colour of 0), or 100 % when nothing was used.
export function scaleMax(cells: HeatCell[]): number {
  const highest = Math.max(0, ...cells.map((c) => c.percent ?? 0));
  return highest > 0 ? highest : 100;
}

const maxLabelledColumns = 16;

interface HeatPoint {
  value?: unknown;
}
const percentOf = (point: HeatPoint) => (Array.isArray(point.value) ? Number(point.value[2]) : 0);

export function heatmapOption(cells: HeatCell[], xName: string, yName: string, baseName: string): EChartsCoreOption {
  const xs = [...new Set(cells.map((c) => c.x))].sort();
  const ys = [...new Set(cells.map((c) => c.y))].sort();
  const max = scaleMax(cells);
  return {
    tooltip: {
      position: 'top',
      formatter: (p: HeatPoint) => {
        const [x, y] = Array.isArray(p.value) ? [xs[p.value[0] as number], ys[p.value[1] as number]] : ['', ''];
        return `${y} · ${x}: ${formatShare(percentOf(p))} of ${baseName} used`;
      },
    },
    // Room on the right for the scale, below for the axis name under its labels.
    grid: { left: 120, right: 150, top: 16, bottom: 56 },
    xAxis: { type: 'category', data: xs, name: xName, nameLocation: 'middle', nameGap: 32, splitArea: { show: true } },
    yAxis: { type: 'category', data: ys, name: yName, splitArea: { show: true } },
    // A legend of the colours, labelled in %, beside the grid where it overlaps no label.
    visualMap: {
      type: 'continuous',
      min: 0,
      max,
      calculable: false,
      orient: 'vertical',
      right: 8,
      top: 'middle',
      itemHeight: 160,
      text: [`${formatShare(max)} (highest)`, '0%'],
      inRange: { color: [...HEAT_SCALE] },
    },
    series: [
      {
        name: `utilisation, % of ${baseName}`,
        type: 'heatmap',
        // A label per cell only where cells are wide enough for one (up to 16
        // columns; 150 days of a team ran their labels into each other), and
        // any that would still touch another is left out.
        labelLayout: { hideOverlap: true },
        label: {
          show: xs.length <= maxLabelledColumns && xs.length * ys.length <= 200,
          formatter: (p: HeatPoint) => formatShare(percentOf(p)),
          color: '#1a1a1a',
          textBorderColor: '#ffffff',
          textBorderWidth: 2,
        },
        data: cells
          .filter((c) => c.percent !== null)
          .map((c) => ({
            value: [xs.indexOf(c.x), ys.indexOf(c.y), c.percent],
            // Light text on the darker half of the scale.
            ...(c.percent! > max / 2 ? { label: { color: '#ffffff', textBorderColor: '#12355b' } } : {}),
          })),
      },
    ],
  };
}
