import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { formatDeviceHours, formatDevices, formatFraction, formatMoney, formatTime } from '../../format/numbers';
import type { IdleRun, WorkloadWaste } from '../../api/types';
import { signalWords } from './insightsWords';

// The idle runs of one workload, the longest first, as the API lists them
// (at most 20; the count says how many there were in all).
export function IdleRunsPanel({ workload, name, currency }: { workload: WorkloadWaste; name: string; currency: string }) {
  const runs = workload.runs ?? [];
  const columns: Column<IdleRun>[] = [
    { id: 'start', header: 'From', cell: (r) => formatTime(r.start) },
    { id: 'end', header: 'To', cell: (r) => formatTime(r.end) },
    { id: 'where', header: 'Model, cluster', cell: (r) => `${r.model ?? ''}, ${r.cluster ?? ''}` },
    { id: 'devices', header: 'Devices', numeric: true, cell: (r) => formatDevices(r.devicesMilli) },
    {
      id: 'activity',
      header: 'Mean activity',
      numeric: true,
      cell: (r) => `${formatFraction(r.meanActivity)} (${signalWords(r.signal)})`,
    },
    { id: 'time', header: 'Idle device-hours', numeric: true, cell: (r) => formatDeviceHours(r.wastedMilliSeconds) },
    {
      id: 'cost',
      header: 'Wasted',
      numeric: true,
      cell: (r) => (
        <Figure testId={`insights-run-cost-${runs.indexOf(r)}`} value={r.wastedCostMicro ?? '0'} text={formatMoney(r.wastedCostMicro, currency)} />
      ),
    },
  ];
  const count = workload.runCount ?? runs.length;
  return (
    <div className="panel" id="insights-runs" data-testid="insights-runs">
      <h3>Idle runs of {name}</h3>
      <DataTable
        caption={
          count > runs.length ? `The ${runs.length} longest of its ${count} idle runs` : `Its ${count} idle run${count === 1 ? '' : 's'}, the longest first`
        }
        columns={columns}
        rows={runs}
        rowKey={(r) => `${r.cluster}/${r.podUid}/${r.start}`}
        testId="insights-runs-table"
      />
    </div>
  );
}
