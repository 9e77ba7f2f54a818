// The pods that held one device over the range (GET /v1/fleet/assets/holds):
// the drill-down of a device row of the Assets page.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { deviceHolds } from '../../api/endpoints';
import type { DeviceHold } from '../../api/types';
import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { big, formatDevices, formatDeviceTime, formatTime } from '../../format/numbers';
import type { TimeRange } from '../../time/range';

interface HoldRow {
  index: number;
  hold: DeviceHold;
}

export function DeviceHoldsPanel({
  device,
  range,
  onClose,
}: {
  device: { cluster: string; device: string };
  range: Pick<TimeRange, 'start' | 'end'>;
  onClose: () => void;
}) {
  const query = { cluster: device.cluster, device: device.device, start: range.start, end: range.end };
  const holds = useQuery({ queryKey: ['device-holds', query], queryFn: () => deviceHolds(query) });
  const columns = useMemo<Column<HoldRow>[]>(
    () => [
      { id: 'pod', header: 'Pod', cell: (row) => row.hold.pod ?? '' },
      { id: 'namespace', header: 'Namespace', cell: (row) => row.hold.namespace || '–' },
      { id: 'workload', header: 'Workload', cell: (row) => row.hold.workload || '–' },
      { id: 'team', header: 'Team', cell: (row) => row.hold.team ?? '' },
      { id: 'milli', header: 'Devices', numeric: true, cell: (row) => formatDevices(row.hold.milli) },
      { id: 'from', header: 'Held from', cell: (row) => formatTime(row.hold.heldFrom) },
      { id: 'to', header: 'Held to', cell: (row) => formatTime(row.hold.heldTo) },
      {
        id: 'held',
        // A pod may hold a device for seconds: device-hours to a decimal would read 0.0.
        header: 'Held device time',
        numeric: true,
        cell: (row) => (
          <Figure
            testId={`assets-hold-held-${row.index}`}
            value={big(row.hold.heldMilliSeconds)}
            text={formatDeviceTime(row.hold.heldMilliSeconds)}
          />
        ),
      },
    ],
    [],
  );
  return (
    <section aria-labelledby="device-holds-title" data-testid="assets-holds">
      <h2 id="device-holds-title">
        Pods that held {device.device} ({device.cluster}){' '}
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </h2>
      <QueryView query={holds} what="the device's pods" height={120}>
        {(data) => {
          const rows = (data.holds ?? []).map((hold, index) => ({ index, hold }));
          return (
            <>
              {rows.length === 0 && <p>No pod held this device in the range.</p>}
              {data.truncated && <p>Only the first {rows.length} holds of the range are shown.</p>}
              {rows.length > 0 && (
                <DataTable
                  caption={`Pods that held ${device.device}`}
                  columns={columns}
                  rows={rows}
                  rowKey={(row) => String(row.index)}
                  testId="assets-holds-table"
                />
              )}
            </>
          );
        }}
      </QueryView>
    </section>
  );
}
