import type { CapacitySeries } from '../../api/types';
import { alignFigure, stackedOption } from './capacityChart';

const hour = (h: number) => `2026-12-01T${String(h).padStart(2, '0')}:00:00Z`;
const deviceHours = (n: number) => String(n * 3_600_000);

// Model B has no bucket at 01:00 (the API leaves out buckets without data).
const series: CapacitySeries = {
  groups: [
    {
      model: 'A',
      buckets: [0, 1, 2].map((h) => ({ start: hour(h), heldMilliSeconds: deviceHours(h + 1), capacityMilliSeconds: deviceHours(8) })),
    },
    {
      model: 'B',
      buckets: [0, 2].map((h) => ({ start: hour(h), heldMilliSeconds: deviceHours(10), capacityMilliSeconds: deviceHours(4) })),
    },
  ],
};

test('every group gets a value at every time of the answer, 0 where it has no bucket', () => {
  const { times, values } = alignFigure(series, 'held');
  expect(times).toEqual([0, 1, 2].map((h) => Date.parse(hour(h))));
  expect([...values[0]!]).toEqual([1, 2, 3]);
  expect([...values[1]!]).toEqual([10, 0, 10]);
});

test('values are device-hours rounded to a milli-device-hour', () => {
  const odd: CapacitySeries = { groups: [{ model: 'A', buckets: [{ start: hour(0), heldMilliSeconds: '1234567' }] }] };
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
