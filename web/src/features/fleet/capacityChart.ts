// Turns a CapacitySeries into echarts options. Device time per bucket is
// shown as device-hours (floats are fine for drawing; no amount is summed
// here). Points are [time ms, value] pairs in one array per series, drawn
// on canvas with sampling, so 90 days x hourly x every model stays smooth.
import type { EChartsCoreOption } from 'echarts/core';
import { big } from '../../format/numbers';
import type { CapacityBucket, CapacitySeries, CapacitySeriesGroup } from '../../api/types';

export type GroupKey = 'model' | 'cluster' | 'team';
export type Figure = 'held' | 'used' | 'capacity';

const msPerDeviceHour = 3_600_000;
const fieldOf: Record<Figure, keyof CapacityBucket> = {
  held: 'heldMilliSeconds',
  used: 'usedMilliSeconds',
  capacity: 'capacityMilliSeconds',
};

export function groupName(group: CapacitySeriesGroup, groupBy: GroupKey[]): string {
  const parts = groupBy.map((key) => group[key] || '(none)');
  return parts.length > 0 ? parts.join(' / ') : 'fleet';
}

// For drawing only: per-bucket device time is far below 2^53, and a chart
// needs no exact sum, so plain numbers spare 100,000 BigInt parses.
function deviceHours(value: string | undefined): number {
  return value === undefined ? 0 : Number(value) / msPerDeviceHour;
}

// Per bucket start, the sum over groups of one figure (for drawing).
export function totalsByTime(series: CapacitySeries, figure: Figure): [number, number][] {
  const sums = new Map<string, number>();
  for (const group of series.groups ?? []) {
    for (const bucket of group.buckets ?? []) {
      const t = bucket.start ?? '';
      sums.set(t, (sums.get(t) ?? 0) + deviceHours(bucket[fieldOf[figure]] as string | undefined));
    }
  }
  return [...sums.entries()].map(([t, v]) => [Date.parse(t), v] as [number, number]).sort((a, b) => a[0] - b[0]);
}

export function stackedOption(series: CapacitySeries, groupBy: GroupKey[], figure: Figure): EChartsCoreOption {
  const groups = series.groups ?? [];
  const lines: object[] = groups.map((group) => ({
    name: groupName(group, groupBy),
    type: 'line',
    stack: figure,
    areaStyle: {},
    showSymbol: false,
    sampling: 'lttb',
    lineStyle: { width: 1 },
    emphasis: { focus: 'series' },
    data: (group.buckets ?? []).map((b) => [Date.parse(b.start ?? ''), deviceHours(b[fieldOf[figure]] as string | undefined)]),
  }));
  // Capacity is 0 when grouped by team: the fleet's line only makes sense otherwise.
  if (!groupBy.includes('team') && figure !== 'capacity') {
    lines.push({
      name: 'capacity (all)',
      type: 'line',
      showSymbol: false,
      sampling: 'lttb',
      lineStyle: { width: 2, type: 'dashed', color: '#222' },
      itemStyle: { color: '#222' },
      data: totalsByTime(series, 'capacity'),
    });
  }
  return {
    tooltip: { trigger: 'axis' },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 56, right: 16, top: 40, bottom: 56 },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', name: 'device-hours' },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 8 }],
    series: lines,
  };
}

export interface HeatCell {
  x: string;
  y: string;
  // used / base as a percentage (1 decimal), or null when base is zero.
  percent: number | null;
}

// Utilisation per (x, y): used over capacity (by cluster x model) or over
// held (team x day, where capacity is not attributed to teams).
export function heatCells(
  series: CapacitySeries,
  x: (group: CapacitySeriesGroup, bucket: CapacityBucket) => string,
  y: (group: CapacitySeriesGroup) => string,
  base: 'capacity' | 'held',
): HeatCell[] {
  const sums = new Map<string, { x: string; y: string; used: bigint; base: bigint }>();
  for (const group of series.groups ?? []) {
    for (const bucket of group.buckets ?? []) {
      const cx = x(group, bucket);
      const cy = y(group);
      const key = `${cx}\u0000${cy}`;
      const cell = sums.get(key) ?? { x: cx, y: cy, used: 0n, base: 0n };
      cell.used += big(bucket.usedMilliSeconds);
      cell.base += big(base === 'capacity' ? bucket.capacityMilliSeconds : bucket.heldMilliSeconds);
      sums.set(key, cell);
    }
  }
  return [...sums.values()].map((c) => ({
    x: c.x,
    y: c.y,
    percent: c.base === 0n ? null : Number((c.used * 1000n) / c.base) / 10,
  }));
}

export function heatmapOption(cells: HeatCell[], xName: string, yName: string): EChartsCoreOption {
  const xs = [...new Set(cells.map((c) => c.x))].sort();
  const ys = [...new Set(cells.map((c) => c.y))].sort();
  return {
    tooltip: { position: 'top' },
    grid: { left: 120, right: 16, top: 16, bottom: 72 },
    xAxis: { type: 'category', data: xs, name: xName, splitArea: { show: true } },
    yAxis: { type: 'category', data: ys, name: yName, splitArea: { show: true } },
    visualMap: { min: 0, max: 100, calculable: true, orient: 'horizontal', left: 'center', bottom: 0, text: ['100%', '0%'] },
    series: [
      {
        name: 'utilisation %',
        type: 'heatmap',
        label: { show: xs.length * ys.length <= 200 },
        data: cells.filter((c) => c.percent !== null).map((c) => [xs.indexOf(c.x), ys.indexOf(c.y), c.percent]),
      },
    ],
  };
}
