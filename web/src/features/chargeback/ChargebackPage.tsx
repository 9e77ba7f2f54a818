import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router-dom';
import { chargeback, chargebackExport } from '../../api/endpoints';
import { DataTable, type Column } from '../../components/DataTable';
import { downloadText } from '../../components/download';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { WorkloadLabel } from '../../components/WorkloadLabel';
import { big, formatDeviceHours, formatMoney, formatRatio } from '../../format/numbers';
import { EfficiencyCell } from '../efficiency/EfficiencyCell';
import { previousRange } from '../../time/range';
import { useTimeRange } from '../../time/useTimeRange';
import { useSession } from '../../auth/session';
import type { ChargebackLine, ChargebackReport } from '../../api/types';
import { drillFromParams, type Level } from './drill';
import { stackLabels } from './costSeries';
import { rowName, tableGroupingOf, tableParams } from './tableGrouping';
import { ChargebackFilters } from './ChargebackFilters';
import { CostOverTime } from './CostOverTime';
import { ExplainPanel } from './ExplainPanel';
import { StackFieldOptions } from './StackFieldOptions';
import { idleLineName, idleModeLabels, idleModeOf, idleModes, reportWithIdle } from './idleView';

interface Row {
  name: string;
  line: ChargebackLine;
  previousTotal: bigint | null;
}

function change(now: bigint, before: bigint | null): string {
  if (before === null) return 'new';
  if (before === 0n) return now === 0n ? '0.0%' : '–';
  const text = formatRatio(now - before, before < 0n ? -before : before);
  return now >= before ? `+${text}` : text;
}

// The change as a ratio to sort by (the cell shows it exactly as text).
function changeRatio(now: bigint, before: bigint | null): number {
  if (before === null || before === 0n) return now === 0n ? 0 : Number.POSITIVE_INFINITY;
  return Number(now - before) / Number(before < 0n ? -before : before);
}

export default function ChargebackPage() {
  const range = useTimeRange();
  const [params, setParams] = useSearchParams();
  const drill = drillFromParams(params);
  const grouping = tableGroupingOf(params);
  const query = tableParams(drill, range, grouping);
  const previous = { ...query, ...previousRange(range) };
  const explainWorkload = drill.level === 'workload' ? params.get('explain') : null;
  const [exportError, setExportError] = useState<unknown>(null);
  // A team token cannot read a team outside its subtree (the API says 403);
  // say so here rather than send a request bound to be refused.
  const { scope } = useSession();
  // Until the scope is known, nothing is asked for: not the report, not an explanation.
  const outside = scope !== null && scope.team !== null && drill.team !== null && !scope.teams.includes(drill.team);

  // Keep the previous answer on screen while a new range loads, but not
  // across drill levels, whose rows mean something else.
  const sameLevel = <T,>(data: T | undefined, previousQuery?: { queryKey: readonly unknown[] }) =>
    (previousQuery?.queryKey[1] as { group_by?: string } | undefined)?.group_by === query.group_by ? data : undefined;
  const report = useQuery({
    queryKey: ['chargeback', query],
    queryFn: () => chargeback(query),
    placeholderData: sameLevel,
    enabled: scope !== null && !outside,
  });
  const before = useQuery({
    queryKey: ['chargeback', previous],
    queryFn: () => chargeback(previous),
    placeholderData: sameLevel,
    enabled: scope !== null && !outside,
  });

  const idleMode = idleModeOf(params);
  // Idle kept apart stays per model or cluster when the table is grouped by one, as on the chart.
  const keptBy = grouping === 'model' || grouping === 'cluster' ? grouping : undefined;
  const shown = useMemo(() => report.data && reportWithIdle(report.data, idleMode, keptBy), [report.data, idleMode, keptBy]);
  const shownBefore = useMemo(() => before.data && reportWithIdle(before.data, idleMode, keptBy), [before.data, idleMode, keptBy]);

  const goTo = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [key, value] of Object.entries(next)) {
      if (value === null) p.delete(key);
      else p.set(key, value);
    }
    setParams(p);
  };

  const columns = useMemo<Column<Row>[]>(() => {
    const level: Level = drill.level;
    const id = (row: Row) => row.name;
    return [
      {
        id: 'name',
        header: grouping !== null ? stackLabels[grouping] : level === 'team' ? 'Team' : level === 'namespace' ? 'Namespace' : 'Workload',
        sortValue: (row) => row.name,
        cell: (row) =>
          // Grouped by a field, a row is a sum across the drill's levels: nothing to drill into.
          grouping !== null ? (
            grouping === 'workload' && row.line.lineKind !== 'idle' ? <WorkloadLabel workload={row.line.workload} /> : row.name
          ) : row.line.lineKind === 'idle' && row.name === idleLineName ? (
            row.name
          ) : level === 'team' ? (
            <button type="button" className="link" onClick={() => goTo({ team: row.line.team ?? '', namespace: null, explain: null, ...freshTableView })}>
              {row.name}
            </button>
          ) : level === 'namespace' ? (
            <button type="button" className="link" onClick={() => goTo({ namespace: row.line.namespace ?? '', explain: null, ...freshTableView })}>
              {row.name}
            </button>
          ) : (
            <>
              {/* The breadcrumb names the team and namespace: the kind is the only context added. */}
              <WorkloadLabel workload={row.line.workload} />{' '}
              <button type="button" className="link" onClick={() => goTo({ explain: row.line.workload ?? '' })}>
                Explain
              </button>
            </>
          ),
      },
      {
        id: 'total',
        header: 'Cost',
        numeric: true,
        sortValue: (row) => big(row.line.totalCostMicro),
        cell: (row) => (
          <Figure testId={`chargeback-row-total-${id(row)}`} value={big(row.line.totalCostMicro)} text={formatMoney(row.line.totalCostMicro, currencyOf(report.data))} />
        ),
      },
      {
        id: 'held',
        header: 'Held device-hours',
        numeric: true,
        sortValue: (row) => big(row.line.heldMilliSeconds),
        cell: (row) => (
          <Figure testId={`chargeback-row-held-${id(row)}`} value={big(row.line.heldMilliSeconds)} text={formatDeviceHours(row.line.heldMilliSeconds)} />
        ),
      },
      {
        id: 'used',
        header: 'Used device-hours',
        numeric: true,
        sortValue: (row) => big(row.line.usedMilliSeconds),
        cell: (row) => (
          <Figure testId={`chargeback-row-used-${id(row)}`} value={big(row.line.usedMilliSeconds)} text={formatDeviceHours(row.line.usedMilliSeconds)} />
        ),
      },
      {
        id: 'efficiency',
        header: 'Efficiency',
        numeric: true,
        sortValue: (row) => row.line.efficiency ?? 0,
        cell: (row) => <EfficiencyCell line={row.line} />,
      },
      {
        id: 'idle',
        header: 'Idle share',
        numeric: true,
        sortValue: (row) => big(row.line.idleCostMicro),
        cell: (row) => (
          <Figure
            testId={`chargeback-row-idle-${id(row)}`}
            value={big(row.line.idleCostMicro)}
            text={formatRatio(big(row.line.idleCostMicro), big(row.line.totalCostMicro))}
          />
        ),
      },
      {
        id: 'previous',
        header: 'Previous period',
        numeric: true,
        // A row new in this period sorts below every row that had a cost.
        sortValue: (row) => row.previousTotal ?? -1n,
        cell: (row) => (row.previousTotal === null ? '–' : formatMoney(row.previousTotal, currencyOf(report.data))),
      },
      {
        id: 'change',
        header: 'Change',
        numeric: true,
        // By growth against the previous period; a row new in this one grew the most.
        sortValue: (row) => changeRatio(big(row.line.totalCostMicro), row.previousTotal),
        cell: (row) => change(big(row.line.totalCostMicro), row.previousTotal),
      },
    ];
    // goTo reads the current params; the columns change with the level and data.
  }, [drill.level, grouping, params, report.data]);

  const rows = useMemo<Row[]>(() => {
    const lines = shown?.lines ?? [];
    const previousByName = new Map<string, bigint>();
    for (const line of shownBefore?.lines ?? []) {
      const name = rowName(line, drill.level, grouping);
      previousByName.set(name, (previousByName.get(name) ?? 0n) + big(line.totalCostMicro));
    }
    return lines
      .map((line) => {
        const name = rowName(line, drill.level, grouping);
        return { name, line, previousTotal: previousByName.get(name) ?? null };
      })
      .sort((a, b) => {
        const d = big(b.line.totalCostMicro) - big(a.line.totalCostMicro);
        return d > 0n ? 1 : d < 0n ? -1 : a.name.localeCompare(b.name);
      });
  }, [shown, shownBefore, drill.level, grouping]);

  const exportAs = async (format: 'csv' | 'focus') => {
    setExportError(null);
    try {
      const text = await chargebackExport(format, query);
      const where = [drill.team, drill.namespace, grouping && `by-${grouping}`].filter(Boolean).join('-');
      downloadText(`chargeback-${format}${where ? `-${where}` : ''}-${range.start.slice(0, 10)}.csv`, text, 'text/csv');
    } catch (cause) {
      setExportError(cause);
    }
  };

  return (
    <section>
      <h1>Chargeback</h1>
      <TimeRangePicker range={range} />
      <nav aria-label="Drill-down" className="breadcrumb">
        <Link to={`?${withoutDrill(params)}`}>All teams</Link>
        {drill.team && (
          <>
            {' › '}
            <Link to={`?${withoutDrill(params, { team: drill.team })}`}>{drill.team}</Link>
          </>
        )}
        {drill.namespace && <> › {drill.namespace}</>}
      </nav>
      {!outside && (
        <ChargebackFilters
          drill={drill}
          range={range}
          enabled={scope !== null}
          onChange={(key, value) => goTo({ [key]: value, ...freshTableView })}
        />
      )}
      <div className="controls">
        <label>
          Idle capacity
          <select
            value={idleMode}
            data-testid="idle-mode"
            onChange={(e) => goTo({ idle: e.target.value === 'shared' ? null : e.target.value, ...freshTableView })}
          >
            {idleModes.map((mode) => (
              <option key={mode} value={mode}>
                {idleModeLabels[mode]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Group table by
          <select
            value={grouping ?? ''}
            data-testid="table-group-by"
            onChange={(e) => goTo({ table: e.target.value || null, ...freshTableView })}
          >
            <option value="">The drill ({drill.level})</option>
            <StackFieldOptions />
          </select>
        </label>
        <button type="button" disabled={outside} onClick={() => void exportAs('csv')}>
          Export CSV
        </button>
        <button type="button" disabled={outside} onClick={() => void exportAs('focus')}>
          Export FOCUS
        </button>
      </div>
      {exportError !== null && <ErrorMessage error={exportError} what="the export" />}
      {outside ? (
        <p role="alert" data-testid="outside-scope">
          Your token sees team {scope?.team} and its sub-teams only; the team in the address is not one of them.{' '}
          <Link to={`?${withoutDrill(params)}`}>Show your teams</Link>
        </p>
      ) : (
        <>
          <CostOverTime drill={drill} range={range} idleMode={idleMode} enabled={scope !== null} />
          <QueryView query={report} what="the chargeback report" height={300}>
            {(data) => (
              <>
                <p>
                  Total{' '}
                  <Figure
                    testId="chargeback-total"
                    value={big((shown ?? data).totalCostMicro)}
                    text={formatMoney((shown ?? data).totalCostMicro, currencyOf(data))}
                  />
                  {idleMode === 'hidden' && (
                    <>
                      {' '}
                      without idle capacity of{' '}
                      <Figure
                        testId="chargeback-idle-hidden"
                        value={big(data.totalCostMicro) - big(shown?.totalCostMicro)}
                        text={formatMoney(big(data.totalCostMicro) - big(shown?.totalCostMicro), currencyOf(data))}
                      />
                    </>
                  )}
                  {shownBefore && (
                    <>
                      {' '}
                      against{' '}
                      <Figure
                        testId="chargeback-previous-total"
                        value={big(shownBefore.totalCostMicro)}
                        text={formatMoney(shownBefore.totalCostMicro, currencyOf(data))}
                      />{' '}
                      in the previous period ({change(big((shown ?? data).totalCostMicro), big(shownBefore.totalCostMicro))}).
                    </>
                  )}
                </p>
                <DataTable
                  caption={`Cost by ${grouping !== null ? stackLabels[grouping].toLowerCase() : drill.level}`}
                  columns={columns}
                  rows={rows}
                  rowKey={(row) => (grouping !== null ? row.name : `${row.line.team}/${row.line.namespace}/${row.line.workload}`)}
                  testId="chargeback-table"
                  view={tableView}
                />
              </>
            )}
          </QueryView>
        </>
      )}
      {scope !== null && !outside && explainWorkload !== null && drill.team && drill.namespace && (
        <ExplainPanel
          team={drill.team}
          namespace={drill.namespace}
          workload={explainWorkload}
          range={range}
          onClose={() => goTo({ explain: null })}
        />
      )}
    </section>
  );
}

function currencyOf(report: ChargebackReport | undefined): string {
  return report?.currency || 'USD';
}

// The table's sort, search and page (DataTable's view) belong to one drill
// level: a step up or down starts without them.
const tableViewKeys = ['sort', 'q', 'page'];
const tableView = { urlKey: '', searchText: (row: Row) => row.name, pageSize: 50 };
const freshTableView = Object.fromEntries(tableViewKeys.map((key) => [key, null]));

function withoutDrill(params: URLSearchParams, keep: Record<string, string> = {}): string {
  const p = new URLSearchParams(params);
  for (const key of ['team', 'namespace', 'explain', ...tableViewKeys]) p.delete(key);
  for (const [key, value] of Object.entries(keep)) p.set(key, value);
  return p.toString();
}
