import type { ChargebackLine } from '../../api/types';
import { drillFromParams } from './drill';
import { rowName, tableGroupingOf, tableParams } from './tableGrouping';

const range = { start: '2026-11-27T19:00:00Z', end: '2026-12-04T19:00:00Z' };

test('the grouping is a field the chart stacks by, or follows the drill', () => {
  expect(tableGroupingOf(new URLSearchParams('table=model'))).toBe('model');
  expect(tableGroupingOf(new URLSearchParams('table=line_kind'))).toBe('line_kind');
  expect(tableGroupingOf(new URLSearchParams(''))).toBeNull();
  // Not a field of the API's group_by: the drill, never the text passed on.
  expect(tableGroupingOf(new URLSearchParams('table=team,namespace'))).toBeNull();
  expect(tableGroupingOf(new URLSearchParams('table=pod'))).toBeNull();
});

test("a grouping replaces the drill's group_by and keeps its filters and window", () => {
  const drill = drillFromParams(new URLSearchParams('team=ml&namespace=ml-train&cluster=east&line_kind=workload'));
  expect(tableParams(drill, range, 'model')).toEqual({
    ...range,
    group_by: 'model',
    resolution: 'none',
    team: 'ml',
    namespace: 'ml-train',
    cluster: 'east',
    line_kind: 'workload',
  });
  expect(tableParams(drill, range, null).group_by).toBe('team,namespace,workload');
});

test("a row is named by the grouping's field, else by the drill level's", () => {
  const line: ChargebackLine = { team: 'ml', namespace: 'ml-train', model: 'A100-80GB', cluster: 'east', lineKind: 'workload' };
    expect(rowName(line, 'team', null)).toBe('ml');
  expect(rowName(line, 'team', 'model')).toBe('A100-80GB');
  expect(rowName(line, 'team', 'cluster')).toBe('east');
  expect(rowName(line, 'team', 'line_kind')).toBe('workload');
  expect(rowName({ lineKind: 'idle' }, 'team', 'team')).toBe('(none)');
});
