// Cost over time: the chargeback's lines of one grouping per bucket, folded
// into one series per group (the largest first, the rest summed as "other")
// with exact totals, for the stacked chart and the table under it.
import type { ChargebackLine } from '../../api/types';
import { OTHER_NAME } from '../../components/palette';
import { big } from '../../format/numbers';

export const stackFields = ['team', 'namespace', 'workload', 'model', 'cluster', 'line_kind'] as const;
export type StackField = (typeof stackFields)[number];
export const stackLabels: Record<StackField, string> = {
  team: 'Team',
  namespace: 'Namespace',
  workload: 'Workload',
  model: 'Model',
  cluster: 'Cluster',
  line_kind: 'Line kind',
};

export const resolutions = ['hour', 'day', 'month'] as const;
export type Resolution = (typeof resolutions)[number];

const hourMs = 3_600_000;
// Hourly buckets beyond two weeks are more bars than a chart can show apart.
const longestHourlyMs = 14 * 24 * hourMs;

// The resolutions a window can be drawn at, and the one it is drawn at
// unless the URL asks for another of them.
export function resolutionsFor(range: { start: string; end: string }): { allowed: Resolution[]; fallback: Resolution } {
  const length = Date.parse(range.end) - Date.parse(range.start);
  const allowed: Resolution[] = length <= longestHourlyMs ? ['hour', 'day', 'month'] : ['day', 'month'];
  const fallback: Resolution = length <= 2 * 24 * hourMs ? 'hour' : length <= 180 * 24 * hourMs ? 'day' : 'month';
  return { allowed, fallback };
}

// The groups past a chart's limit are summed as the palette's "other".
export const otherGroup = OTHER_NAME;

export interface CostSeries {
  buckets: string[]; // bucket starts, RFC 3339, ascending
  groups: Array<{ name: string; totalMicro: bigint; perBucketMicro: bigint[] }>; // largest first, "other" last
  totalMicro: bigint;
}

// A line's name in a grouping by one field.
export function groupOf(line: ChargebackLine, field: StackField): string {
  const value =
    field === 'line_kind'
      ? line.lineKind
      : field === 'team'
        ? line.team
        : field === 'namespace'
          ? line.namespace
          : field === 'workload'
            ? line.workload
            : field === 'model'
              ? line.model
              : line.cluster;
  return value || '(none)';
}

// At most `maxGroups` series: the `maxGroups - 1` largest by total cost and
// the rest as "other" (every group shown when they fit).
export function costSeries(lines: ChargebackLine[], field: StackField, maxGroups: number): CostSeries {
  const buckets = [...new Set(lines.map((line) => line.start ?? ''))].sort();
  const index = new Map(buckets.map((bucket, i) => [bucket, i]));
  const byGroup = new Map<string, bigint[]>();
  for (const line of lines) {
    const name = groupOf(line, field);
    let values = byGroup.get(name);
    if (!values) {
      values = buckets.map(() => 0n);
      byGroup.set(name, values);
    }
    const i = index.get(line.start ?? '') ?? 0;
    values[i] = (values[i] ?? 0n) + big(line.totalCostMicro);
  }
  const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
  const ranked = [...byGroup.entries()]
    .map(([name, perBucketMicro]) => ({ name, totalMicro: sum(perBucketMicro), perBucketMicro }))
    .sort((a, b) => (a.totalMicro === b.totalMicro ? a.name.localeCompare(b.name) : a.totalMicro > b.totalMicro ? -1 : 1));
  const groups = ranked.length <= maxGroups ? ranked : ranked.slice(0, maxGroups - 1);
  if (ranked.length > maxGroups) {
    const rest = ranked.slice(maxGroups - 1);
    const perBucketMicro = buckets.map((_, i) => rest.reduce((a, g) => a + (g.perBucketMicro[i] ?? 0n), 0n));
    groups.push({ name: otherGroup, totalMicro: sum(perBucketMicro), perBucketMicro });
  }
  return { buckets, groups, totalMicro: sum(ranked.map((g) => g.totalMicro)) };
}

// Running sums per group: what was spent from the window's start to the end
// of each bucket.
export function cumulative(series: CostSeries): CostSeries {
  return {
    ...series,
    groups: series.groups.map((group) => {
      let running = 0n;
      return { ...group, perBucketMicro: group.perBucketMicro.map((value) => (running += value)) };
    }),
  };
}
