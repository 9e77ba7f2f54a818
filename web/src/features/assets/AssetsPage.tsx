// The fleet's assets over the time range (GET /v1/fleet/assets): per model,
// cluster, node or device, capacity, held, used and idle device-hours and
// the idle cost, the most idle first; a model or cluster leads to its
// nodes, a node to its devices, a device to the pods that held it. For
// planners and admins: a team token is told so and asks for nothing.
import { useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { assets, assetsExport } from '../../api/endpoints';
import type { AssetRow, Assets } from '../../api/types';
import { useSession } from '../../auth/session';
import { DataTable, type Column } from '../../components/DataTable';
import { downloadText } from '../../components/download';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { big, formatDeviceHours, formatMoney, formatRatio } from '../../format/numbers';
import { useTimeRange } from '../../time/useTimeRange';
import {
  assetFilters,
  assetLevelLabels,
  assetLevels,
  assetName,
  assetsQuery,
  assetViewFromParams,
  type AssetFilter,
  type AssetLevel,
} from './assetView';
import { DeviceHoldsPanel } from './DeviceHoldsPanel';

interface Row {
  name: string;
  row: AssetRow;
}

// A figure the API may leave out as unknown: shown "unknown", never 0.
function Known({ testId, value, text }: { testId: string; value: string | undefined; text: (v: string) => string }) {
  if (value === undefined) return <Figure testId={testId} value="unknown" text="unknown" />;
  return <Figure testId={testId} value={big(value)} text={text(value)} />;
}

// The table's sort, search and page (DataTable's view) and the device shown
// belong to one level and filter: another starts without them.
const freshView = { sort: null, q: null, page: null, device_cluster: null, device: null };
const tableView = { urlKey: '', searchText: (row: Row) => `${row.name} ${row.row.model ?? ''}`, pageSize: 50 };

export default function AssetsPage() {
  const range = useTimeRange();
  const [params, setParams] = useSearchParams();
  const view = assetViewFromParams(params);
  const { scope } = useSession();
  const planner = scope !== null && scope.team === null;
  const query = assetsQuery(view, range);
  const answer = useQuery({
    queryKey: ['assets', query],
    queryFn: () => assets(query),
    // Keep the rows on screen while a new range loads, not across levels.
    placeholderData: (data, previous) =>
      (previous?.queryKey[1] as { group_by?: string } | undefined)?.group_by === view.level ? data : undefined,
    enabled: planner,
  });

  const goTo = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value === null || value === '') p.delete(key);
      else p.set(key, value);
    }
    setParams(p);
  };
  // The view on screen as the API exports it: the same call (grouping,
  // filters, window, limit), so the file holds every row of the answer with
  // every figure exact.
  const [exportError, setExportError] = useState<unknown>(null);
  const exportCsv = async () => {
    setExportError(null);
    try {
      const where = Object.values(view.filters).filter(Boolean).join('-');
      downloadText(`assets-by-${view.level}${where ? `-${where}` : ''}-${range.start.slice(0, 10)}.csv`, await assetsExport(query), 'text/csv');
    } catch (cause) {
      setExportError(cause);
    }
  };
  const currency = answer.data?.currency || 'USD';
  const columns = useMemo(() => assetColumns(view.level, currency, goTo), [view.level, currency, params]);
  const rows = useMemo<Row[]>(
    () => (answer.data?.rows ?? []).map((row) => ({ name: assetName(row, view.level), row })),
    [answer.data, view.level],
  );

  return (
    <section>
      <h1>Assets</h1>
      {scope !== null && !planner ? (
        <p role="alert" data-testid="assets-scope">
          The Assets page is for planners: it shows the whole fleet’s capacity and idle cost, which belong to no
          team. Your token sees team {scope.team} and its sub-teams; their cost is on the Chargeback page.
        </p>
      ) : (
        <>
          <TimeRangePicker range={range} />
          <div className="controls">
            <label>
              Group by
              <select
                value={view.level}
                data-testid="assets-group-by"
                onChange={(e) => goTo({ group_by: e.target.value === 'model' ? null : e.target.value, ...freshView })}
              >
                {assetLevels.map((level) => (
                  <option key={level} value={level}>
                    {assetLevelLabels[level]}
                  </option>
                ))}
              </select>
            </label>
            <FilterForm filters={view.filters} onApply={(filters) => goTo({ ...filters, ...freshView })} />
            <button type="button" disabled={!planner} onClick={() => void exportCsv()}>
              Export CSV
            </button>
          </div>
          {exportError !== null && <ErrorMessage error={exportError} what="the export" />}
          <QueryView query={answer} what="the fleet's assets" height={300}>
            {(data) => (
              <>
                <AssetTotals data={data} currency={currency} level={view.level} />
                <DataTable
                  caption={`Assets by ${view.level}, the most idle first`}
                  columns={columns}
                  rows={rows}
                  rowKey={(row) => row.name}
                  testId="assets-table"
                  view={tableView}
                />
              </>
            )}
          </QueryView>
          {view.device && (
            <DeviceHoldsPanel
              device={view.device}
              range={range}
              onClose={() => goTo({ device_cluster: null, device: null })}
            />
          )}
        </>
      )}
    </section>
  );
}

function AssetTotals({ data, currency, level }: { data: Assets; currency: string; level: AssetLevel }) {
  const totals = data.totals ?? {};
  const shown = data.rows?.length ?? 0;
  return (
    <p>
      <Figure testId="assets-groups" value={data.groups ?? '0'} text={data.groups ?? '0'} /> {level}
      {data.groups === '1' ? '' : 's'}
      {big(data.groups) > BigInt(shown) && <> (the {shown} most idle listed)</>}: capacity{' '}
      <Figure
        testId="assets-total-capacity"
        value={big(totals.capacityMilliSeconds)}
        text={formatDeviceHours(totals.capacityMilliSeconds)}
      />{' '}
      device-hours, idle{' '}
      <Figure
        testId="assets-total-idle"
        value={big(totals.idleMilliSeconds)}
        text={formatDeviceHours(totals.idleMilliSeconds)}
      />{' '}
      ({formatRatio(big(totals.idleMilliSeconds), big(totals.capacityMilliSeconds))}), idle cost{' '}
      <Known testId="assets-total-idle-cost" value={totals.idleCostMicro} text={(v) => formatMoney(v, currency)} />.
    </p>
  );
}

function FilterForm({
  filters,
  onApply,
}: {
  filters: Record<AssetFilter, string>;
  onApply: (filters: Record<AssetFilter, string>) => void;
}) {
  const [typed, setTyped] = useState<Record<AssetFilter, string> | null>(null);
  const shown = typed ?? filters;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(shown);
    setTyped(null);
  };
  return (
    <form onSubmit={submit} aria-label="Filters" className="filters">
      {assetFilters.map((key) => (
        <label key={key}>
          {key.charAt(0).toUpperCase() + key.slice(1)}
          <input
            type="text"
            value={shown[key]}
            maxLength={253}
            data-testid={`assets-filter-${key}`}
            onChange={(e) => setTyped({ ...shown, [key]: e.target.value })}
          />
        </label>
      ))}
      <button type="submit">Apply filters</button>
    </form>
  );
}

// The columns of a level: its key, then the figures (each sorting exactly).
function assetColumns(
  level: AssetLevel,
  currency: string,
  goTo: (next: Record<string, string | null>) => void,
): Column<Row>[] {
  const figure = (id: string, header: string, value: (r: AssetRow) => string | undefined) => ({
    id,
    header,
    numeric: true,
    sortValue: (row: Row) => big(value(row.row)),
    cell: (row: Row) => (
      <Figure testId={`assets-row-${id}-${row.name}`} value={big(value(row.row))} text={deviceHoursShown(value(row.row))} />
    ),
  });
  const columns: Column<Row>[] = [
    {
      id: 'name',
      header: assetLevelLabels[level],
      sortValue: (row) => row.name,
      cell: (row) => <DrillButton row={row} level={level} goTo={goTo} />,
    },
  ];
  if (level === 'node' || level === 'device') {
    columns.push({ id: 'model', header: 'Model', sortValue: (row) => row.row.model ?? '', cell: (row) => row.row.model });
  }
  columns.push(
    { id: 'devices', header: 'Devices', numeric: true, sortValue: (row) => big(row.row.devices), cell: (row) => row.row.devices ?? '0' },
    figure('capacity', 'Capacity device-hours', (r) => r.capacityMilliSeconds),
    figure('held', 'Held device-hours', (r) => r.heldMilliSeconds),
    {
      id: 'used',
      header: 'Used device-hours',
      numeric: true,
      sortValue: (row) => (row.row.usedMilliSeconds === undefined ? -1n : big(row.row.usedMilliSeconds)),
      cell: (row) => <Known testId={`assets-row-used-${row.name}`} value={row.row.usedMilliSeconds} text={deviceHoursShown} />,
    },
    {
      // Used over the held time with a reading: time without one is unknown, not unused.
      id: 'efficiency',
      header: 'Used of observed',
      numeric: true,
      sortValue: (row) => usedShare(row.row),
      cell: (row) => (
        <span data-testid={`assets-row-efficiency-${row.name}`}>
          {row.row.usedMilliSeconds === undefined
            ? 'unknown'
            : formatRatio(big(row.row.usedMilliSeconds), big(row.row.observedMilliSeconds))}
        </span>
      ),
    },
    figure('idle', 'Idle device-hours', (r) => r.idleMilliSeconds),
    {
      id: 'utilisation',
      header: 'Held of capacity',
      numeric: true,
      sortValue: (row) => heldShare(row.row),
      cell: (row) => formatRatio(big(row.row.heldMilliSeconds), big(row.row.capacityMilliSeconds)),
    },
    {
      id: 'idle-cost',
      header: 'Idle cost',
      numeric: true,
      // Unknown sorts below every known cost.
      sortValue: (row) => (row.row.idleCostMicro === undefined ? -(2n ** 63n) : big(row.row.idleCostMicro)),
      cell: (row) => (
        <Known testId={`assets-row-idle-cost-${row.name}`} value={row.row.idleCostMicro} text={(v) => formatMoney(v, currency)} />
      ),
    },
  );
  return columns;
}

// Held / capacity in parts per million, to sort by (exact enough to order).
// A row's device-hours to one decimal, where a device held for seconds reads
// "< 0.1", never 0.0 (its exact figure is the cell's data-value).
function deviceHoursShown(milliSeconds: string | undefined): string {
  const text = formatDeviceHours(milliSeconds);
  return big(milliSeconds) > 0n && text === '0.0' ? '< 0.1' : text;
}

// Used of observed in millionths; unknown below every known share.
function usedShare(row: AssetRow): bigint {
  if (row.usedMilliSeconds === undefined) return -1n;
  const observed = big(row.observedMilliSeconds);
  return observed === 0n ? 0n : (big(row.usedMilliSeconds) * 1_000_000n) / observed;
}

function heldShare(row: AssetRow): bigint {
  const capacity = big(row.capacityMilliSeconds);
  return capacity === 0n ? 0n : (big(row.heldMilliSeconds) * 1_000_000n) / capacity;
}

// A model or cluster leads to its nodes, a node to its devices, a device to its pods.
function DrillButton({
  row,
  level,
  goTo,
}: {
  row: Row;
  level: AssetLevel;
  goTo: (next: Record<string, string | null>) => void;
}) {
  const r = row.row;
  const next: Record<AssetLevel, Record<string, string | null>> = {
    model: { ...freshView, group_by: 'node', model: r.model ?? '' },
    cluster: { ...freshView, group_by: 'node', cluster: r.cluster ?? '' },
    node: { ...freshView, group_by: 'device', cluster: r.cluster ?? '', model: r.model ?? '', node: r.node ?? '' },
    device: { device_cluster: r.cluster ?? '', device: r.device ?? '' },
  };
  const leadsTo = level === 'device' ? 'the pods that held it' : level === 'node' ? 'its devices' : 'its nodes';
  return (
    <button type="button" className="link" title={`Show ${leadsTo}`} onClick={() => goTo(next[level])}>
      {row.name}
    </button>
  );
}
