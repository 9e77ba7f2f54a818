import { big } from '../../format/numbers';
import type { ChargebackLine } from '../../api/types';

// Held time splits three ways: used, observed but unused (a reading said the
// device was idle), and unknown (no reading at all). Unknown is never unused.

// Held device time with a reading that was not used.
export function unusedDeviceTime(line: ChargebackLine): bigint {
  const unused = big(line.observedMilliSeconds) - big(line.usedMilliSeconds);
  return unused > 0n ? unused : 0n;
}

// Held device time without any reading: how it was used is unknown.
export function unknownDeviceTime(line: ChargebackLine): bigint {
  const unknown = big(line.heldMilliSeconds) - big(line.observedMilliSeconds);
  return unknown > 0n ? unknown : 0n;
}

// The part of the direct cost paid for `time` of the line's held time, in
// whole micro-units (BigInt, rounded down).
function directCostOf(line: ChargebackLine, time: bigint): bigint {
  const held = big(line.heldMilliSeconds);
  return held === 0n ? 0n : (big(line.directCostMicro) * time) / held;
}

// The money paid for held but unused device time.
export function unusedCostMicro(line: ChargebackLine): bigint {
  return directCostOf(line, unusedDeviceTime(line));
}

// The money paid for held time whose use is unknown.
export function unknownCostMicro(line: ChargebackLine): bigint {
  return directCostOf(line, unknownDeviceTime(line));
}

export function byDescending<T>(key: (item: T) => bigint) {
  return (a: T, b: T) => {
    const d = key(b) - key(a);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  };
}
