// The forecast chart's ECharts option: the held history, the p50 line and
// the p50..p90 band, and the flavor's capacity (history and the flat
// projection) as a dashed step line. Values are devices (milli / 1000),
// which is only for drawing: the figures on the page are exact.
import type { Forecast, ForecastBand, ForecastValue } from '../../api/types';
import { ROLE_COLOURS } from '../../components/palette';
import { big } from '../../format/numbers';

type Point = [number, number];

const devices = (milli: string | undefined) => Number(big(milli)) / 1000;
const values = (points: ForecastValue[] | undefined): Point[] =>
  (points ?? []).map((p) => [Date.parse(p.start ?? ''), devices(p.milli)]);
const bands = (points: ForecastBand[] | undefined, pick: (b: ForecastBand) => number): Point[] =>
  (points ?? []).map((b) => [Date.parse(b.start ?? ''), pick(b)]);

// The band is drawn as two stacked series: the p50 (invisible) and, above
// it, p90 − p50 filled. They carry these names so the tooltip leaves them out.
const bandBase = 'band-base';
const bandWidth = 'band-width';

export const forecastSeriesNames = {
  history: 'held (history)',
  p50: 'p50 forecast',
  p90: 'p90 forecast',
  capacity: 'capacity',
} as const;

export function hasPoints(f: Forecast): boolean {
  return (f.history?.length ?? 0) + (f.forecast?.length ?? 0) > 0;
}

export function hasCapacity(f: Forecast): boolean {
  return (f.capacityHistory?.length ?? 0) + (f.capacityForecast?.length ?? 0) > 0;
}

// Drawn on one axis, a capacity this many times the highest demand leaves the
// demand a flat line along the axis (one team of a flavor with 4,392
// devices): the page then shows the capacity only when asked.
export const capacitySquashRatio = 4;

export function capacitySquashes(f: Forecast): boolean {
  const highest = (values: number[]) => Math.max(0, ...values);
  const demand = highest([
    ...(f.history ?? []).map((p) => devices(p.milli)),
    ...(f.forecast ?? []).map((b) => Math.max(devices(b.p50Milli), devices(b.p90Milli))),
  ]);
  const capacity = highest([...(f.capacityHistory ?? []), ...(f.capacityForecast ?? [])].map((p) => devices(p.milli)));
  return capacity > capacitySquashRatio * demand;
}

interface TooltipItem {
  seriesName?: string;
  value?: unknown;
  axisValue?: number | string;
}

function tooltip(items: TooltipItem[] | TooltipItem): string {
  const list = (Array.isArray(items) ? items : [items]).filter(
    (i) => i.seriesName !== bandBase && i.seriesName !== bandWidth,
  );
  const first = list[0];
  if (!first) return '';
  const time = new Date(Number(first.axisValue)).toISOString().slice(0, 16).replace('T', ' ');
  const lines = list.map((i) => {
    const value = Array.isArray(i.value) ? Number(i.value[1]) : Number(i.value);
    return `${i.seriesName}: ${value.toLocaleString('en-US', { maximumFractionDigits: 3 })} devices`;
  });
  return [`${time} UTC`, ...lines].join('<br/>');
}

export function forecastChartOption(f: Forecast, showCapacity = true) {
  const p50 = bands(f.forecast, (b) => devices(b.p50Milli));
  const width = bands(f.forecast, (b) => devices(b.p90Milli) - devices(b.p50Milli));
  const capacity = showCapacity ? [...values(f.capacityHistory), ...values(f.capacityForecast)] : [];
  const series: object[] = [
    { name: forecastSeriesNames.history, type: 'line', showSymbol: false, data: values(f.history), color: ROLE_COLOURS.history },
    { name: bandBase, type: 'line', stack: 'band', showSymbol: false, lineStyle: { opacity: 0 }, data: p50, silent: true },
    {
      name: bandWidth,
      type: 'line',
      stack: 'band',
      showSymbol: false,
      lineStyle: { opacity: 0 },
      areaStyle: { color: ROLE_COLOURS.forecastBand },
      data: width,
      silent: true,
    },
    { name: forecastSeriesNames.p50, type: 'line', showSymbol: false, data: p50, color: ROLE_COLOURS.forecast },
    {
      name: forecastSeriesNames.p90,
      type: 'line',
      showSymbol: false,
      data: bands(f.forecast, (b) => devices(b.p90Milli)),
      color: ROLE_COLOURS.forecast,
      lineStyle: { type: 'dotted' },
    },
  ];
  if (capacity.length > 0) {
    series.push({
      name: forecastSeriesNames.capacity,
      type: 'line',
      step: 'end',
      showSymbol: false,
      data: capacity,
      color: ROLE_COLOURS.capacity,
      lineStyle: { type: 'dashed' },
    });
  }
  return {
    tooltip: { trigger: 'axis', formatter: tooltip },
    legend: { top: 0, data: Object.values(forecastSeriesNames).filter((n) => n !== 'capacity' || capacity.length > 0) },
    grid: { left: 64, right: 24, top: 48, bottom: 32 },
    xAxis: { type: 'time' },
    yAxis: { type: 'value', name: 'devices' },
    series,
  };
}
