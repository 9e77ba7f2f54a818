import { big } from '../../format/numbers';
import type { ChargebackLine } from '../../api/types';

// The money paid for held but unused device time: the direct cost times the
// unused share of held time, in whole micro-units (BigInt, rounded down).
export function unusedCostMicro(line: ChargebackLine): bigint {
  const held = big(line.heldMilliSeconds);
  if (held === 0n) return 0n;
  const unused = held - big(line.usedMilliSeconds);
  if (unused <= 0n) return 0n;
  return (big(line.directCostMicro) * unused) / held;
}

export function unusedDeviceTime(line: ChargebackLine): bigint {
  const unused = big(line.heldMilliSeconds) - big(line.usedMilliSeconds);
  return unused > 0n ? unused : 0n;
}

export function byDescending<T>(key: (item: T) => bigint) {
  return (a: T, b: T) => {
    const d = key(b) - key(a);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  };
}
