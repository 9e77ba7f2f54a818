import type { CapacitySeries } from '../../api/types';
import { formatShare, heatCells, heatmapOption, scaleMax } from './heatmapChart';

const hour = (h: number) => `2026-12-01T${String(h).padStart(2, '0')}:00:00Z`;
const deviceHours = (n: number) => String(n * 3_600_000);

// Two models over three hours; nothing used.
const byModel: CapacitySeries = {
  start: hour(0),
  end: hour(3),
  stepSeconds: 3600,
  groups: [
    { model: 'A', heldMilliSeconds: [1, 2, 3].map(deviceHours), capacityMilliSeconds: [8, 8, 8].map(deviceHours) },
    { model: 'B', heldMilliSeconds: [10, 0, 10].map(deviceHours), capacityMilliSeconds: [4, 0, 4].map(deviceHours) },
  ],
};

test('heatmap cells sum the columns exactly and leave out buckets without data', () => {
  // Daily, two days: used above 2^53 in total checks the sums never pass through floats.
  const daily: CapacitySeries = {
    start: '2026-12-01T00:00:00Z',
    end: '2026-12-04T00:00:00Z',
    stepSeconds: 86_400,
    groups: [
      {
        team: 'ml',
        capacityMilliSeconds: ['0', '0', '0'],
        heldMilliSeconds: ['9007199254740993', '0', '4'],
        usedMilliSeconds: ['9007199254740993', '0', '1'],
      },
    ],
  };
  const byDay = heatCells(daily, (_g, ms) => new Date(ms).toISOString().slice(0, 10), (g) => g.team!, 'held');
  // 2026-12-02 has no data: no cell, so no empty column for it.
  expect(byDay).toEqual([
    { x: '2026-12-01', y: 'ml', percent: 100 },
    { x: '2026-12-03', y: 'ml', percent: 25 },
  ]);
  const whole = heatCells(byModel, (g) => g.model!, () => 'fleet', 'capacity');
  expect(whole.map((c) => c.x)).toEqual(['A', 'B']);
  expect(whole.map((c) => c.percent)).toEqual([0, 0]);
});

test('a cell used a millionth of its capacity is not 0', () => {
  // 4,392 devices for 90 days, used for 14,000 device-seconds: 4.1e-7 of it.
  const capacity = String(4392n * 90n * 86_400_000n);
  const tiny: CapacitySeries = {
    start: '2026-09-01T00:00:00Z',
    end: '2026-09-02T00:00:00Z',
    stepSeconds: 86_400,
    groups: [{ model: 'G2', cluster: 'openb', capacityMilliSeconds: [capacity], usedMilliSeconds: ['14000000'] }],
  };
  const [cell] = heatCells(tiny, (g) => g.model!, (g) => g.cluster!, 'capacity');
  expect(cell!.percent).toBe(0.0000409929); // 14e6 x 10^12 / 3.415e13, floored, as a percentage
  expect(formatShare(cell!.percent!)).toBe('0.000041%');
});

test('shares read with their unit and two significant digits', () => {
  expect(formatShare(0)).toBe('0%');
  expect(formatShare(100)).toBe('100%');
  expect(formatShare(45.4)).toBe('45%');
  expect(formatShare(3.25)).toBe('3.3%');
  expect(formatShare(1)).toBe('1%');
  expect(formatShare(0.34)).toBe('0.34%');
  expect(formatShare(0.0021)).toBe('0.0021%');
  expect(formatShare(0.00000004)).toBe('<0.000001%');
});

test("the colour scale ends at the highest cell, labelled in %, beside the grid", () => {
  const cells = [
    { x: 'G2', y: 'openb', percent: 0.0021 },
    { x: 'T4', y: 'openb', percent: 0.0004 },
    { x: 'A10', y: 'openb', percent: null },
  ];
  expect(scaleMax(cells)).toBe(0.0021);
  expect(scaleMax([{ x: 'a', y: 'b', percent: 0 }])).toBe(100);
  const option = heatmapOption(cells, 'model', 'cluster', 'capacity') as {
    visualMap: { max: number; text: string[]; calculable: boolean; orient: string };
    series: { label: { formatter: (p: { value: unknown }) => string }; data: unknown[] }[];
  };
  expect(option.visualMap).toMatchObject({ max: 0.0021, text: ['0.0021% (highest)', '0%'], calculable: false, orient: 'vertical' });
  // The busiest cell, on the dark end of the scale, is labelled in white.
  expect(option.series[0]!.data).toEqual([
    { value: [1, 0, 0.0021], label: { color: '#ffffff', textBorderColor: '#12355b' } },
    { value: [2, 0, 0.0004] },
  ]);
  expect(option.series[0]!.label.formatter({ value: [2, 0, 0.0004] })).toBe('0.0004%');
});

test('cells are labelled only where there is room: up to 16 columns', () => {
  const days = (n: number) => Array.from({ length: n }, (_, i) => ({ x: `2026-11-${String(i + 1).padStart(2, '0')}`, y: 'team-00', percent: 1 }));
  const labelled = (n: number) => (heatmapOption(days(n), 'day', 'team', 'held') as { series: { label: { show: boolean } }[] }).series[0]!.label.show;
  expect(labelled(7)).toBe(true);
  expect(labelled(16)).toBe(true);
  expect(labelled(17)).toBe(false);
});
