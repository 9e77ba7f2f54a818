// The steps of a spend-change waterfall: the previous window's total, each
// driver moving the running total up or down, the current total. Exact in
// BigInt; only the drawing turns them into pixels.
import { big } from '../../format/numbers';
import type { SpendChangeReport } from '../../api/types';

export interface WaterfallStep {
  // A driver's name, or "previous" / "current" for the totals.
  name: string;
  kind: 'total' | 'up' | 'down';
  // The bar spans [from, to] (from <= to), in micro-units.
  from: bigint;
  to: bigint;
  // The step's own figure: the total, or the driver's signed change.
  value: bigint;
}

export function waterfallSteps(report: SpendChangeReport): WaterfallStep[] {
  const previous = big(report.previousCostMicro);
  const steps: WaterfallStep[] = [{ name: 'previous', kind: 'total', from: 0n, to: previous, value: previous }];
  let running = previous;
  for (const driver of report.drivers ?? []) {
    const change = big(driver.changeMicro);
    const next = running + change;
    steps.push({
      name: driver.name ?? '',
      kind: change < 0n ? 'down' : 'up',
      from: change < 0n ? next : running,
      to: change < 0n ? running : next,
      value: change,
    });
    running = next;
  }
  const current = big(report.currentCostMicro);
  steps.push({ name: 'current', kind: 'total', from: 0n, to: current, value: current });
  return steps;
}

// What the drivers add up to against the change the API reports: they are
// documented to be equal to the micro-unit; a page that showed otherwise
// silently would hide a wrong figure.
export function driversMismatch(report: SpendChangeReport): bigint {
  const sum = (report.drivers ?? []).reduce((total, d) => total + big(d.changeMicro), 0n);
  return big(report.changeMicro) - sum;
}

// The axis's span: from the lowest point (0 or below) to the highest.
export function waterfallDomain(steps: WaterfallStep[]): [bigint, bigint] {
  let low = 0n;
  let high = 0n;
  for (const step of steps) {
    if (step.from < low) low = step.from;
    if (step.to > high) high = step.to;
  }
  return [low, high === low ? low + 1n : high];
}
