import { big, formatRatio } from '../../format/numbers';
import type { ChargebackLine } from '../../api/types';
import { unknownDeviceTime } from './waste';

// Used of observed time; a line with held time but no reading says so
// instead of showing 0%, and one read only in part is marked.
export function EfficiencyCell({ line }: { line: ChargebackLine }) {
  const observed = big(line.observedMilliSeconds);
  if (observed === 0n && big(line.heldMilliSeconds) > 0n) return <span className="unknown">no telemetry</span>;
  const ratio = formatRatio(big(line.usedMilliSeconds), observed);
  return unknownDeviceTime(line) > 0n ? (
    <span title="Some held time had no telemetry: efficiency is of the time with readings">{ratio} *</span>
  ) : (
    <>{ratio}</>
  );
}
