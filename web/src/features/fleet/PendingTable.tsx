import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { big, formatDevices, formatTime } from '../../format/numbers';
import type { PendingDemand, PendingPod } from '../../api/types';

const columns: Column<PendingPod>[] = [
  { id: 'cluster', header: 'Cluster', cell: (p) => p.cluster },
  { id: 'namespace', header: 'Namespace', cell: (p) => p.namespace },
  { id: 'pod', header: 'Pod', cell: (p) => p.pod },
  { id: 'team', header: 'Team', cell: (p) => p.team },
  { id: 'model', header: 'Model', cell: (p) => p.model },
  { id: 'requested', header: 'Requested (devices)', numeric: true, cell: (p) => formatDevices(p.requestedMilli) },
  { id: 'since', header: 'Pending since', cell: (p) => formatTime(p.pendingSince) },
];

export function PendingTable({ demand }: { demand: PendingDemand }) {
  const pods = demand.pods ?? [];
  return (
    <>
      <p>
        <Figure testId="pending-count" value={String(pods.length)} text={String(pods.length)} /> pending accelerator pods
        requesting <Figure testId="pending-requested" value={big(demand.requestedMilli)} text={formatDevices(demand.requestedMilli)} />{' '}
        devices.
      </p>
      <DataTable
        caption="Accelerator pods waiting for devices"
        columns={columns}
        rows={pods}
        rowKey={(p) => `${p.cluster}/${p.namespace}/${p.pod}`}
        testId="pending-table"
      />
    </>
  );
}
