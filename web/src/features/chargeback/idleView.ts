// How the Chargeback page shows idle capacity (`idle=` in the URL): as the
// policy billed it (`shared`: each team's lines carry their share), kept
// apart (`kept`: the teams' lines without it and one line of all idle), or
// hidden (`hidden`: the teams' lines without it, the total too). Idle is
// the largest figure a fleet has; a planner needs it in and out of the bill.
import type { ChargebackLine, ChargebackReport } from '../../api/types';
import { big } from '../../format/numbers';

export const idleModes = ['shared', 'kept', 'hidden'] as const;
export type IdleMode = (typeof idleModes)[number];
export const idleModeLabels: Record<IdleMode, string> = {
  shared: 'Shared (as billed)',
  kept: 'Kept apart',
  hidden: 'Hidden',
};

export function idleModeOf(params: URLSearchParams): IdleMode {
  const mode = params.get('idle');
  return (idleModes as readonly string[]).includes(mode ?? '') ? (mode as IdleMode) : 'shared';
}

// The name of the one line of idle capacity when kept apart.
export const idleLineName = 'idle capacity';

// A line's idle cost: all of an idle line (idle kept by the policy, or with
// nobody to share it), the share received of any other.
export function idleOf(line: ChargebackLine): bigint {
  return line.lineKind === 'idle' ? big(line.totalCostMicro) : big(line.idleCostMicro);
}

function withoutIdle(line: ChargebackLine): ChargebackLine {
  const idle = idleOf(line);
  return {
    ...line,
    idleCostMicro: '0',
    totalCostMicro: String(big(line.totalCostMicro) - idle),
  };
}

// Fields idle capacity can be kept apart by: it belongs to no team,
// namespace or workload, but it is of a model and in a cluster.
export type IdleKeptBy = 'model' | 'cluster';

// The report as the mode shows it. `kept` adds, per bucket (and per model or
// cluster, `keptBy`, when the lines are grouped by it), a line of the idle
// taken off the others, named idleLineName (with the model or cluster) in
// every field shown, kind `idle`, and keeps the total; `hidden` drops the
// idle from the total.
export function reportWithIdle(report: ChargebackReport, mode: IdleMode, keptBy?: IdleKeptBy): ChargebackReport {
  if (mode === 'shared') return report;
  const lines = report.lines ?? [];
  // Keyed by bucket and, when kept by one, the model or cluster.
  const idleByKey = new Map<string, { start: string; of: string; micro: bigint }>();
  for (const line of lines) {
    const start = line.start ?? '';
    const of = keptBy ? (line[keptBy] ?? '') : '';
    const key = `${start}\u0000${of}`;
    const entry = idleByKey.get(key) ?? { start, of, micro: 0n };
    entry.micro += idleOf(line);
    idleByKey.set(key, entry);
  }
  // A line left with nothing (an idle line, or a team's line of idle only,
  // once its idle is taken off) goes.
  const kept = lines
    .filter((line) => line.lineKind !== 'idle')
    .map(withoutIdle)
    .filter((line) => big(line.totalCostMicro) !== 0n || big(line.heldMilliSeconds) !== 0n);
  const idle = [...idleByKey.values()].reduce((a, b) => a + b.micro, 0n);
  if (mode === 'hidden') return { ...report, lines: kept, totalCostMicro: String(big(report.totalCostMicro) - idle) };
  const idleLines = [...idleByKey.values()]
    .filter(({ micro }) => micro !== 0n)
    .map(({ start, of, micro }): ChargebackLine => {
      const name = keptBy ? `${idleLineName} · ${of || '(none)'}` : idleLineName;
      return {
        start,
        team: name,
        namespace: name,
        workload: name,
        model: name,
        cluster: name,
        lineKind: 'idle',
        idleCostMicro: String(micro),
        totalCostMicro: String(micro),
      };
    });
  return { ...report, lines: [...kept, ...idleLines] };
}
