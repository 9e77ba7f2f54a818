// What the Fleet page asks the API for, from its URL and the token's scope.
// One pure function for the page and for the route's prefetch, so that both
// make the same queries (same keys) and the page finds the prefetched
// answers in the cache.
import { capacitySeries } from '../../api/endpoints';
import type { Scope } from '../../auth/scope';
import { rangeHours, type TimeRange } from '../../time/range';
import type { Figure, GroupKey } from './capacityChart';
import { wholeDays } from './dayWindow';

const groupKeys: GroupKey[] = ['model', 'cluster', 'team'];
const figures: Figure[] = ['held', 'used', 'capacity'];

function choice<T extends string>(value: string | null, allowed: T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

export interface Window {
  start: string;
  end: string;
}

export interface FleetView {
  isTeam: boolean;
  allowedGroups: GroupKey[];
  allowedFigures: Figure[];
  groupBy: GroupKey;
  figure: Figure;
  resolution: 'hour' | 'day';
  seriesWindow: Window;
  heatGroup: string;
  heatWindow: Window;
}

export function fleetView(params: URLSearchParams, range: TimeRange, scope: Scope | null): FleetView {
  // A team token sees capacity series only grouped by team (its subtree).
  const isTeam = scope?.team != null;
  const allowedGroups = isTeam ? (['team'] as GroupKey[]) : groupKeys;
  const allowedFigures = isTeam ? (['held', 'used'] as Figure[]) : figures;
  // Hourly up to 90 days; beyond that daily buckets keep the chart readable.
  const resolution = rangeHours(range) > 2160 ? 'day' : 'hour';
  return {
    isTeam,
    allowedGroups,
    allowedFigures,
    groupBy: choice(params.get('group'), allowedGroups, allowedGroups[0]!),
    figure: choice(params.get('figure'), allowedFigures, 'held'),
    resolution,
    seriesWindow: resolution === 'day' ? wholeDays(range) : { start: range.start, end: range.end },
    // The heatmap sums the whole range (or per day): daily buckets are enough
    // and 24 times fewer than hourly ones.
    heatGroup: isTeam ? 'team' : 'cluster,model',
    heatWindow: wholeDays(range),
  };
}

// Columnar: one time axis and three arrays per group, a fifth to a quarter
// of the bytes of a bucket object per (group, hour) over 90 days, and what
// the charts draw from directly (capacityChart.ts).
export function capacityQuery(window: Window, resolution: 'hour' | 'day', groupBy: string) {
  return {
    queryKey: ['capacity', window.start, window.end, resolution, groupBy],
    queryFn: () =>
      capacitySeries({ start: window.start, end: window.end, resolution, group_by: groupBy, layout: 'columnar' }),
  };
}

export const seriesQuery = (view: FleetView) => capacityQuery(view.seriesWindow, view.resolution, view.groupBy);
export const heatQuery = (view: FleetView) => capacityQuery(view.heatWindow, 'day', view.heatGroup);
