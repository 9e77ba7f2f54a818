// Chargeback's drill-down: team -> namespace -> workload is the same query
// with one more group_by field and one more filter, kept in the URL; the
// cluster, model and line kind filters (`cluster=`, `model=`, `line_kind=`)
// narrow every level and the chart alike.
import type { QueryParams } from '../../api/client';
import type { ChargebackLine } from '../../api/types';

export type Level = 'team' | 'namespace' | 'workload';

export interface Drill {
  team: string | null;
  namespace: string | null;
  level: Level;
  filters: { cluster?: string; model?: string; line_kind?: string };
}

export const filterKeys = ['cluster', 'model', 'line_kind'] as const;

export function drillFromParams(params: URLSearchParams): Drill {
  const team = params.get('team') || null;
  const namespace = team ? params.get('namespace') || null : null;
  const filters: Drill['filters'] = {};
  for (const key of filterKeys) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  return { team, namespace, level: namespace ? 'workload' : team ? 'namespace' : 'team', filters };
}

export function chargebackParams(drill: Drill, range: { start: string; end: string }): QueryParams {
  const groupBy = drill.level === 'team' ? 'team' : drill.level === 'namespace' ? 'team,namespace' : 'team,namespace,workload';
  return {
    start: range.start,
    end: range.end,
    group_by: groupBy,
    resolution: 'none',
    team: drill.team ?? undefined,
    namespace: drill.namespace ?? undefined,
    ...drill.filters,
  };
}

export function lineName(line: ChargebackLine, level: Level): string {
  const name = level === 'team' ? line.team : level === 'namespace' ? line.namespace : line.workload;
  return name || '(none)';
}
