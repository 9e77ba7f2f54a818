import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { big, formatDevices, formatRatio, formatTime } from '../../format/numbers';
import type { FleetSummary, ModelSummary } from '../../api/types';

// Idle: in-service device capacity not held by any pod.
function idleRatio(devices: bigint, heldMilli: bigint): string {
  const capacity = devices * 1000n;
  return formatRatio(capacity - heldMilli, capacity);
}

const columns: Column<ModelSummary>[] = [
  { id: 'model', header: 'Model', cell: (m) => m.model },
  {
    id: 'devices',
    header: 'Devices',
    numeric: true,
    cell: (m) => <Figure testId={`fleet-model-devices-${m.model}`} value={big(m.devices)} text={formatDevices(big(m.devices) * 1000n)} />,
  },
  {
    id: 'held',
    header: 'Held (devices)',
    numeric: true,
    cell: (m) => <Figure testId={`fleet-model-held-${m.model}`} value={big(m.heldMilli)} text={formatDevices(m.heldMilli)} />,
  },
  {
    id: 'used',
    header: 'Used (devices, last hour)',
    numeric: true,
    cell: (m) => <Figure testId={`fleet-model-used-${m.model}`} value={big(m.usedMilli)} text={formatDevices(m.usedMilli)} />,
  },
  { id: 'idle', header: 'Idle', numeric: true, cell: (m) => idleRatio(big(m.devices), big(m.heldMilli)) },
];

export function SnapshotTable({ summary }: { summary: FleetSummary }) {
  const models = summary.models ?? [];
  const devices = big(summary.devices);
  const held = big(summary.heldMilli);
  let used = 0n;
  for (const m of models) used += big(m.usedMilli);
  return (
    <>
      <p>At {formatTime(summary.at)}</p>
      <DataTable
        caption="Devices in service and held, by accelerator model"
        columns={columns}
        rows={models}
        rowKey={(m) => m.model ?? ''}
        testId="fleet-snapshot"
        footer={{
          devices: <Figure testId="fleet-devices" value={devices} text={formatDevices(devices * 1000n)} />,
          held: <Figure testId="fleet-held" value={held} text={formatDevices(held)} />,
          used: <Figure testId="fleet-used" value={used} text={formatDevices(used)} />,
          idle: <span data-testid="fleet-idle">{idleRatio(devices, held)}</span>,
        }}
      />
    </>
  );
}
