import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { chargeback, chargebackExplain } from '../../api/endpoints';
import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { big, formatDeviceHours, formatMoney, formatTime } from '../../format/numbers';
import { parseWorkload, workloadContext } from '../../format/workloadName';
import type { LineExplanation } from '../../api/types';

const columns: Column<LineExplanation>[] = [
  { id: 'cluster', header: 'Cluster', cell: (l) => l.line?.cluster },
  { id: 'model', header: 'Model', cell: (l) => l.line?.model },
  { id: 'holds', header: 'Holds', numeric: true, cell: (l) => String(l.holds?.length ?? 0) },
  { id: 'held', header: 'Held device-hours', numeric: true, cell: (l) => formatDeviceHours(l.line?.heldMilliSeconds) },
  { id: 'direct', header: 'Direct', numeric: true, cell: (l) => formatMoney(l.line?.directCostMicro) },
  { id: 'idle', header: 'Idle received', numeric: true, cell: (l) => formatMoney(l.line?.idleCostMicro) },
  { id: 'shared', header: 'Shared', numeric: true, cell: (l) => formatMoney(l.line?.sharedCostMicro) },
  {
    id: 'total',
    header: 'Total',
    numeric: true,
    cell: (l) => <Figure testId="explain-line-total" value={big(l.line?.totalCostMicro)} text={formatMoney(l.line?.totalCostMicro)} />,
  },
  { id: 'stored', header: 'Matches stored line', cell: (l) => (l.matchesStored ? 'yes' : 'no') },
];

// How one workload's chargeback line is made in one hour: the hours it has
// lines in the range (newest first) and /v1/chargeback/explain for the hour picked.
export function ExplainPanel({
  team,
  namespace,
  workload,
  range,
  onClose,
}: {
  team: string;
  namespace: string;
  workload: string;
  range: { start: string; end: string };
  onClose: () => void;
}) {
  const hours = useQuery({
    queryKey: ['chargeback-hours', team, namespace, workload, range.start, range.end],
    queryFn: () =>
      chargeback({ start: range.start, end: range.end, group_by: 'team,workload', resolution: 'hour', team, namespace, workload }),
  });
  const choices = (hours.data?.lines ?? [])
    .filter((l) => l.start && l.team)
    .map((l) => ({ hour: l.start!, team: l.team! }))
    .sort((a, b) => b.hour.localeCompare(a.hour));
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = choices.find((c) => `${c.team}@${c.hour}` === picked) ?? choices[0] ?? null;

  const explanation = useQuery({
    queryKey: ['explain', chosen?.team, chosen?.hour],
    queryFn: () => chargebackExplain({ team: chosen!.team, hour: chosen!.hour }),
    enabled: chosen !== null,
  });

  // The panel opens below the workloads' table, often out of sight: bring it
  // into view and put focus on its heading (so that a keyboard or screen
  // reader user is where the explanation is) each time a workload is opened.
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = parseWorkload(workload);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [team, namespace, workload]);

  return (
    <section className="panel" aria-labelledby="explain-heading" data-testid="explain-panel">
      <h2 id="explain-heading" ref={heading} tabIndex={-1} data-testid="explain-heading">
        Explanation of {shown.name}
        <span className="workload-context"> {workloadContext(shown.kind, namespace, team)}</span>
      </h2>
      <button type="button" onClick={onClose}>
        Close explanation
      </button>
      <QueryView query={hours} what="the workload's hours" height={80}>
        {() =>
          choices.length === 0 ? (
            <p>The workload has no chargeback lines in this range.</p>
          ) : (
            <label>
              Hour (UTC)
              <select value={chosen ? `${chosen.team}@${chosen.hour}` : ''} onChange={(e) => setPicked(e.target.value)}>
                {choices.map((c) => (
                  <option key={`${c.team}@${c.hour}`} value={`${c.team}@${c.hour}`}>
                    {formatTime(c.hour)} ({c.team})
                  </option>
                ))}
              </select>
            </label>
          )
        }
      </QueryView>
      {chosen && (
        <QueryView query={explanation} what="the explanation" height={160}>
          {(data) => {
            const lines = (data.lines ?? []).filter(
              (l) => l.line?.namespace === namespace && l.line?.workload === workload,
            );
            return (
              <>
                <p>
                  {data.matchesStored
                    ? 'Computed again from the hour’s facts and policy, every line matches the stored one.'
                    : `The recomputed lines differ from the stored ones${data.note ? `: ${data.note}` : ''}.`}
                </p>
                <DataTable
                  caption={`Lines of ${shown.name} in the hour ${formatTime(chosen.hour)}`}
                  columns={columns}
                  rows={lines}
                  rowKey={(l) => `${l.line?.cluster}/${l.line?.model}/${l.line?.lineKind}`}
                  testId="explain-table"
                />
              </>
            );
          }}
        </QueryView>
      )}
    </section>
  );
}
