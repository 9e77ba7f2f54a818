import type { CapacitySeries } from '../../api/types';
import { OTHER_COLOUR } from '../../components/palette';
import { alignFigure, bucketTimes, stackedOption } from './capacityChart';

const hour = (h: number) => `2026-12-01T${String(h).padStart(2, '0')}:00:00Z`;
const deviceHours = (n: number) => String(n * 3_600_000);

// The COLUMNAR layout over three hours; model B has no data at 01:00 (0 there).
const series: CapacitySeries = {
  start: hour(0),
  end: hour(3),
  stepSeconds: 3600,
  layout: 'COLUMNAR',
  groups: [
    {
      model: 'A',
      heldMilliSeconds: [1, 2, 3].map(deviceHours),
      capacityMilliSeconds: [8, 8, 8].map(deviceHours),
      usedMilliSeconds: ['0', '0', '0'],
    },
    {
      model: 'B',
      heldMilliSeconds: [10, 0, 10].map(deviceHours),
      capacityMilliSeconds: [4, 0, 4].map(deviceHours),
      usedMilliSeconds: ['0', '0', '0'],
    },
  ],
};

test('the time axis is every bucket of [start, end) at the answer step', () => {
  expect(bucketTimes(series)).toEqual([0, 1, 2].map((h) => Date.parse(hour(h))));
  expect(bucketTimes({ ...series, stepSeconds: 86_400, end: '2026-12-04T00:00:00Z' })).toEqual(
    [1, 2, 3].map((d) => Date.parse(`2026-12-0${d}T00:00:00Z`)),
  );
  // Without a step there is no axis rather than an endless one.
  expect(bucketTimes({ ...series, stepSeconds: 0 })).toEqual([]);
});

test('every group gets a value at every time of the answer, 0 where it has no data', () => {
  const { times, values } = alignFigure(series, 'held');
  expect(times).toEqual([0, 1, 2].map((h) => Date.parse(hour(h))));
  expect([...values[0]!]).toEqual([1, 2, 3]);
  expect([...values[1]!]).toEqual([10, 0, 10]);
});

test('values are device-hours rounded to a milli-device-hour', () => {
  const odd: CapacitySeries = { start: hour(0), end: hour(1), stepSeconds: 3600, groups: [{ model: 'A', heldMilliSeconds: ['1234567'] }] };
  // 1,234,567 milli-device-seconds = 0.342935... device-hours
  expect([...alignFigure(odd, 'held').values[0]!]).toEqual([0.343]);
});

test('the stacked chart has one aligned series per group and the fleet capacity summed per time', () => {
  const option = stackedOption(series, ['model'], 'held') as { series: { name: string; data: Float64Array; stack?: string }[] };
  expect(option.series.map((s) => s.name)).toEqual(['A', 'B', 'capacity (all)']);
  const t = (h: number) => Date.parse(hour(h));
  expect([...option.series[1]!.data]).toEqual([t(0), 10, t(1), 0, t(2), 10]);
  expect(option.series[1]!.stack).toBe('held');
  expect([...option.series[2]!.data]).toEqual([t(0), 12, t(1), 8, t(2), 12]);
  expect(option.series[2]!.stack).toBeUndefined();
});

test('each group has its own colour up to 24 groups; the smallest past 24 are summed into "other"', () => {
  const teams = (n: number): CapacitySeries => ({
    start: hour(0),
    end: hour(1),
    stepSeconds: 3600,
    groups: Array.from({ length: n }, (_, i) => ({ team: `team-${String(i).padStart(2, '0')}`, heldMilliSeconds: [deviceHours(i + 1)] })),
  });
  type Series = { name: string; color: string; data: Float64Array };
  const twelve = (stackedOption(teams(12), ['team'], 'held') as { series: Series[] }).series;
  expect(twelve).toHaveLength(12);
  expect(twelve[9]!.color).not.toBe(twelve[0]!.color); // team-09 and team-00
  expect(new Set(twelve.map((s) => s.color)).size).toBe(12);

  const thirty = (stackedOption(teams(30), ['team'], 'held') as { series: Series[] }).series;
  expect(thirty).toHaveLength(25);
  expect(new Set(thirty.slice(0, 24).map((s) => s.color)).size).toBe(24);
  // team-00 .. team-05 held the least (1..6 device-hours): 21 in all.
  expect(thirty.map((s) => s.name)).not.toContain('team-05');
  expect(thirty[0]!.name).toBe('team-06');
  expect(thirty[24]).toMatchObject({ name: 'other', color: OTHER_COLOUR });
  expect(thirty[24]!.data[1]).toBe(21);
});
