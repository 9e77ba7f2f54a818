import type { ChargebackLine } from '../../api/types';
import { costSeries, cumulative, otherGroup, resolutionsFor } from './costSeries';

const line = (start: string, team: string, micro: number, model = 'A100'): ChargebackLine => ({
  start,
  team,
  model,
  totalCostMicro: String(micro),
});

const d1 = '2026-12-01T00:00:00Z';
const d2 = '2026-12-02T00:00:00Z';

test('one series per group, largest first, a zero where a group has no line in a bucket', () => {
  const s = costSeries([line(d2, 'b', 5), line(d1, 'a', 1), line(d2, 'a', 2), line(d1, 'c', 9)], 'team', 24);
  expect(s.buckets).toEqual([d1, d2]);
  expect(s.groups.map((g) => [g.name, g.totalMicro, g.perBucketMicro])).toEqual([
    ['c', 9n, [9n, 0n]],
    ['b', 5n, [0n, 5n]],
    ['a', 3n, [1n, 2n]],
  ]);
  expect(s.totalMicro).toBe(17n);
});

test('past the limit the smallest groups are summed as other, and the total is unchanged', () => {
  const lines = Array.from({ length: 30 }, (_, i) => line(i % 2 ? d1 : d2, `team-${String(i).padStart(2, '0')}`, 1000 + i));
  const s = costSeries(lines, 'team', 24);
  // 23 on their own and other.
  expect(s.groups).toHaveLength(24);
  expect(s.groups.at(-1)?.name).toBe(otherGroup);
  expect(s.groups[0]?.name).toBe('team-29');
  // The 7 smallest, team-00 to team-06, are "other".
  expect(s.groups.at(-1)?.totalMicro).toBe(BigInt(7 * 1000 + 0 + 1 + 2 + 3 + 4 + 5 + 6));
  expect(s.groups.reduce((a, g) => a + g.totalMicro, 0n)).toBe(s.totalMicro);
  expect(new Set(s.groups.map((g) => g.name)).size).toBe(24);
});

test('exact to the micro-unit past 2^53', () => {
  const s = costSeries([line(d1, 'a', 0), { start: d1, team: 'a', totalCostMicro: '9007199254740993' }, line(d1, 'a', 1)], 'team', 24);
  expect(s.totalMicro).toBe(9007199254740994n);
});

test('cumulative sums each group bucket by bucket', () => {
  const s = cumulative(costSeries([line(d1, 'a', 1), line(d2, 'a', 2), line(d2, 'b', 4)], 'team', 24));
  expect(s.groups.map((g) => [g.name, g.perBucketMicro])).toEqual([
    ['b', [0n, 4n]],
    ['a', [1n, 3n]],
  ]);
});

test('a missing grouping field is its own group, never dropped', () => {
  const s = costSeries([{ start: d1, totalCostMicro: '7' }, line(d1, 'a', 1, '')], 'model', 24);
  expect(s.groups.map((g) => [g.name, g.totalMicro])).toEqual([['(none)', 8n]]);
});

test('hours are offered up to two weeks; the default is hours, days or months by length', () => {
  const window = (days: number) => ({ start: '2026-01-01T00:00:00Z', end: new Date(Date.parse('2026-01-01T00:00:00Z') + days * 86_400_000).toISOString() });
  expect(resolutionsFor(window(1))).toEqual({ allowed: ['hour', 'day', 'month'], fallback: 'hour' });
  expect(resolutionsFor(window(7))).toEqual({ allowed: ['hour', 'day', 'month'], fallback: 'day' });
  expect(resolutionsFor(window(90))).toEqual({ allowed: ['day', 'month'], fallback: 'day' });
  expect(resolutionsFor(window(366))).toEqual({ allowed: ['day', 'month'], fallback: 'month' });
});
