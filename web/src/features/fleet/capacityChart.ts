// Turns a CapacitySeries (asked for in the COLUMNAR layout: one time axis,
// three arrays per group aligned to it) into echarts options. Device time per
// bucket is shown as device-hours (floats are fine for drawing; no amount is
// summed here). 90 days x hourly x every model is 25,000 points or more, so
// the stacked chart is built for echarts' fast path: one time grid shared by
// every series, each series one Float64Array of [time ms, value] pairs
// (echarts neither copies nor re-parses typed arrays), values rounded to
// milli-device-hours, and drawn on canvas with LTTB sampling.
import type { EChartsCoreOption } from 'echarts/core';
import { groupsShown, OTHER_COLOUR, OTHER_NAME, ROLE_COLOURS, seriesColour } from '../../components/palette';
import type { CapacitySeries, CapacitySeriesGroup } from '../../api/types';

export type GroupKey = 'model' | 'cluster' | 'team';
export type Figure = 'held' | 'used' | 'capacity';

const msPerDeviceHour = 3_600_000;
type Column = 'capacityMilliSeconds' | 'heldMilliSeconds' | 'usedMilliSeconds';
const columnOf: Record<Figure, Column> = {
  held: 'heldMilliSeconds',
  used: 'usedMilliSeconds',
  capacity: 'capacityMilliSeconds',
};

export function groupName(group: CapacitySeriesGroup, groupBy: GroupKey[]): string {
  const parts = groupBy.map((key) => group[key] || '(none)');
  return parts.length > 0 ? parts.join(' / ') : 'fleet';
}

// For drawing only: per-bucket device time is far below 2^53, and a chart
// needs no exact sum, so plain numbers spare 100,000 BigInt parses. Rounded
// to a milli-device-hour (3.6 device-seconds, far below a pixel): echarts
// stacks with a precision-safe addition whose cost grows with the digits.
function deviceHours(value: string | undefined): number {
  return value === undefined ? 0 : Math.round(Number(value) / (msPerDeviceHour / 1000)) / 1000;
}

// The answer's time axis: bucket i starts at start + i x stepSeconds, for
// every bucket of [start, end).
export function bucketTimes(series: CapacitySeries): number[] {
  const start = Date.parse(series.start ?? '');
  const end = Date.parse(series.end ?? '');
  const stepMs = (series.stepSeconds ?? 0) * 1000;
  if (!Number.isFinite(start) || !Number.isFinite(end) || !(stepMs > 0)) return [];
  return Array.from({ length: Math.max(0, Math.round((end - start) / stepMs)) }, (_, i) => start + i * stepMs);
}

// The series on the answer's one time grid. echarts stacks series on a time
// axis by index, so each series has a value (0 where its group has no data)
// at every time of the grid: the columnar answer has exactly that.
export interface AlignedFigure {
  times: number[];
  // Per group of the answer, in its order: the figure at each grid time.
  values: Float64Array[];
}

export function alignFigure(series: CapacitySeries, figure: Figure): AlignedFigure {
  const times = bucketTimes(series);
  const values = (series.groups ?? []).map((group) => {
    const column = group[columnOf[figure]] ?? [];
    const row = new Float64Array(times.length);
    for (let i = 0; i < times.length; i++) row[i] = deviceHours(column[i]);
    return row;
  });
  return { times, values };
}

// [t0, v0, t1, v1, ...]: the layout echarts reads a typed array in, with
// `dimensions` of length 2.
function points(times: number[], value: (i: number) => number): Float64Array {
  const flat = new Float64Array(times.length * 2);
  for (let i = 0; i < times.length; i++) {
    flat[2 * i] = times[i]!;
    flat[2 * i + 1] = value(i);
  }
  return flat;
}

// One stacked area per group, each its own colour of the palette; past the
// palette's 24 colours the smallest groups are summed into one "other" area.
function stackedSeries(series: CapacitySeries, groupBy: GroupKey[], figure: Figure, times: number[], values: Float64Array[]): object[] {
  const groups = series.groups ?? [];
  const totals = values.map((row) => row.reduce((sum, v) => sum + v, 0));
  const { shown, folded } = groupsShown(totals);
  const area = (name: string, color: string, value: (i: number) => number) => ({
    name,
    type: 'line',
    dimensions: ['time', 'device-hours'],
    stack: figure,
    areaStyle: {},
    showSymbol: false,
    sampling: 'lttb',
    lineStyle: { width: 1 },
    color,
    emphasis: { focus: 'series' },
    data: points(times, value),
  });
  const lines = shown.map((g, k) => area(groupName(groups[g]!, groupBy), seriesColour(k), (i) => values[g]![i]!));
  if (folded.length > 0) {
    lines.push(area(OTHER_NAME, OTHER_COLOUR, (i) => Math.round(folded.reduce((sum, g) => sum + values[g]![i]!, 0) * 1000) / 1000));
  }
  return lines;
}

export function stackedOption(series: CapacitySeries, groupBy: GroupKey[], figure: Figure): EChartsCoreOption {
  const { times, values } = alignFigure(series, figure);
  const lines = stackedSeries(series, groupBy, figure, times, values);
  // Capacity is 0 when grouped by team: the fleet's line only makes sense otherwise.
  if (!groupBy.includes('team') && figure !== 'capacity') {
    const capacity = alignFigure(series, 'capacity');
    lines.push({
      name: 'capacity (all)',
      type: 'line',
      dimensions: ['time', 'device-hours'],
      showSymbol: false,
      sampling: 'lttb',
      lineStyle: { width: 2, type: 'dashed', color: ROLE_COLOURS.capacity },
      itemStyle: { color: ROLE_COLOURS.capacity },
      data: points(capacity.times, (i) => capacity.values.reduce((sum, row) => sum + row[i]!, 0)),
    });
  }
  return {
    tooltip: { trigger: 'axis', className: 'chart-tooltip' },
    legend: { type: 'scroll', top: 0 },
    grid: { left: 56, right: 16, top: 40, bottom: 56 },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', name: 'device-hours' },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 20, bottom: 8 }],
    series: lines,
  };
}
