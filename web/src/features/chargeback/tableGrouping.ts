// What the Chargeback page's table is grouped by (`table=` in the URL): by
// default it follows the drill (team, then namespace, then workload); a
// planner may group it by any field the chart stacks by instead, under the
// same drill, filters and window, so that its total stays the chart's and
// the API's. One call either way: the API sums per group.
import type { QueryParams } from '../../api/client';
import type { ChargebackLine } from '../../api/types';
import { groupOf, stackFields, type StackField } from './costSeries';
import { chargebackParams, lineName, type Drill, type Level } from './drill';

// null: follow the drill.
export type TableGrouping = StackField | null;

// The URL's value when it names a field; anything else follows the drill.
export function tableGroupingOf(params: URLSearchParams): TableGrouping {
  const value = params.get('table') ?? '';
  return (stackFields as readonly string[]).includes(value) ? (value as StackField) : null;
}

export function tableParams(drill: Drill, range: { start: string; end: string }, grouping: TableGrouping): QueryParams {
  const params = chargebackParams(drill, range);
  return grouping === null ? params : { ...params, group_by: grouping };
}

// The name a row is shown, sorted, searched and matched to the previous period by.
export function rowName(line: ChargebackLine, level: Level, grouping: TableGrouping): string {
  return grouping === null ? lineName(line, level) : groupOf(line, grouping);
}
