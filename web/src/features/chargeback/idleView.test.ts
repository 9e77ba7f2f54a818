import type { ChargebackLine, ChargebackReport } from '../../api/types';
import { idleLineName, idleModeOf, reportWithIdle } from './idleView';

const d1 = '2026-12-01T00:00:00Z';
const d2 = '2026-12-02T00:00:00Z';
const line = (start: string, team: string, total: number, idle: number, lineKind = 'workload'): ChargebackLine => ({
  start,
  team,
  lineKind,
  totalCostMicro: String(total),
  idleCostMicro: String(idle),
  heldMilliSeconds: '3600000',
});
// Two teams that received idle, and an idle line the policy kept (nobody to share it with).
const report: ChargebackReport = {
  lines: [
    line(d1, 'a', 100, 30),
    line(d1, 'b', 50, 10),
    line(d2, 'a', 70, 20),
    line(d2, 'idle', 40, 40, 'idle'),
    // Grouped without the line kind, the policy's idle team reads as a team of idle only.
    { start: d2, team: 'idle', totalCostMicro: '5', idleCostMicro: '5' },
  ],
  totalCostMicro: '265',
  currency: 'EUR',
};
const totals = (r: ChargebackReport) => (r.lines ?? []).map((l) => [l.start, l.team, l.totalCostMicro, l.idleCostMicro]);

test('shared is the report as billed', () => {
  expect(reportWithIdle(report, 'shared')).toBe(report);
});

test('kept takes the idle off every line and puts it on one line per bucket; the total is unchanged', () => {
  const kept = reportWithIdle(report, 'kept');
  expect(totals(kept)).toEqual([
    [d1, 'a', '70', '0'],
    [d1, 'b', '40', '0'],
    [d2, 'a', '50', '0'],
    [d1, idleLineName, '40', '40'],
    [d2, idleLineName, '65', '65'],
  ]);
  expect(kept.totalCostMicro).toBe('265');
  expect((kept.lines ?? []).reduce((a, l) => a + BigInt(l.totalCostMicro ?? '0'), 0n)).toBe(265n);
  expect(kept.lines?.[0]?.heldMilliSeconds).toBe('3600000');
});

test('kept by model, the idle stays with its model: what idle costs per model', () => {
  const byModel: ChargebackReport = {
    lines: [
      { start: d1, model: 'A100', totalCostMicro: '100', idleCostMicro: '30' },
      { start: d1, model: 'T4', totalCostMicro: '20', idleCostMicro: '15' },
      { start: d1, model: 'T4', lineKind: 'idle', totalCostMicro: '7', idleCostMicro: '7' },
    ],
    totalCostMicro: '127',
  };
  const kept = reportWithIdle(byModel, 'kept', 'model');
  expect((kept.lines ?? []).map((l) => [l.model, l.totalCostMicro])).toEqual([
    ['A100', '70'],
    ['T4', '5'],
    [`${idleLineName} · A100`, '30'],
    [`${idleLineName} · T4`, '22'],
  ]);
  expect(kept.totalCostMicro).toBe('127');
});

test('hidden leaves the idle out of the lines and the total', () => {
  const hidden = reportWithIdle(report, 'hidden');
  expect(totals(hidden)).toEqual([
    [d1, 'a', '70', '0'],
    [d1, 'b', '40', '0'],
    [d2, 'a', '50', '0'],
  ]);
  expect(hidden.totalCostMicro).toBe('160');
  // The idle-only lines are gone, not shown as zero.
  expect((hidden.lines ?? []).map((l) => l.team)).not.toContain('idle');
});

test('the mode comes from the URL, shared unless it names another', () => {
  expect(idleModeOf(new URLSearchParams('idle=kept'))).toBe('kept');
  expect(idleModeOf(new URLSearchParams('idle=hidden'))).toBe('hidden');
  expect(idleModeOf(new URLSearchParams('idle=gone'))).toBe('shared');
  expect(idleModeOf(new URLSearchParams(''))).toBe('shared');
});
