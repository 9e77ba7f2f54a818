import { Figure } from '../../components/Figure';
import { big, formatDeviceHours, formatFraction } from '../../format/numbers';
import type { EfficiencyScore } from '../../api/types';
import { signalWords } from './insightsWords';

// An efficiency score with the signal it was read from; held time that had
// no reading is said, never scored as idle, and a score over nothing
// observed reads "no telemetry", not 0%.
export function EfficiencyFigure({ score, testId }: { score: EfficiencyScore | undefined; testId: string }) {
  if (score === undefined) return <span className="unknown" data-testid={testId} data-value="none">not reported</span>;
  const observed = big(score.observedMilliSeconds);
  if (observed === 0n) {
    return (
      <span className="unknown" data-testid={testId} data-value="unknown">
        no telemetry
      </span>
    );
  }
  const unobserved = big(score.heldMilliSeconds) - observed;
  return (
    <>
      <Figure testId={testId} value={String(score.score ?? 0)} text={formatFraction(score.score)} />{' '}
      <span className="workload-context">
        by {signalWords(score.signal)}
        {unobserved > 0n && `, of the ${formatDeviceHours(observed)} device-hours with readings`}
      </span>
    </>
  );
}
