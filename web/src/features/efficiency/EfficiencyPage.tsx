import { useMemo } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { chargeback } from '../../api/endpoints';
import { Chart } from '../../components/Chart';
import { OTHER_COLOUR } from '../../components/palette';
import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { WorkloadLabel } from '../../components/WorkloadLabel';
import { big, formatDeviceHours, formatMoney } from '../../format/numbers';
import { useTimeRange } from '../../time/useTimeRange';
import type { ChargebackLine } from '../../api/types';
import { EfficiencyCell } from './EfficiencyCell';
import { byDescending, unknownCostMicro, unknownDeviceTime, unusedCostMicro, unusedDeviceTime } from './waste';

// The least efficient workloads shown: the top of the list is what matters.
const worstShown = 20;

export default function EfficiencyPage() {
  const range = useTimeRange();
  const rangeQuery = range.preset ? `range=${range.preset}` : `start=${range.start}&end=${range.end}`;
  const teamParams = { start: range.start, end: range.end, group_by: 'team', resolution: 'none' };
  const workloadParams = {
    start: range.start,
    end: range.end,
    group_by: 'team,namespace,workload',
    resolution: 'none',
    line_kind: 'workload',
  };
  const teams = useQuery({
    queryKey: ['chargeback', teamParams],
    queryFn: () => chargeback(teamParams),
    placeholderData: keepPreviousData,
  });
  const workloads = useQuery({
    queryKey: ['chargeback', workloadParams],
    queryFn: () => chargeback(workloadParams),
    placeholderData: keepPreviousData,
  });
  const currency = teams.data?.currency || 'USD';

  const teamRows = useMemo(
    () => [...(teams.data?.lines ?? [])].sort(byDescending(unusedCostMicro)),
    [teams.data],
  );
  const worst = useMemo(
    () => [...(workloads.data?.lines ?? [])].sort(byDescending(unusedDeviceTime)).slice(0, worstShown),
    [workloads.data],
  );
  const wasteChart = useMemo(
    () => ({
      tooltip: { trigger: 'axis' },
      // The legend says which bar is which; the section's heading is the chart's only title.
      legend: { top: 0 },
      grid: { left: 120, right: 48, top: 40, bottom: 48 },
      // The unit under the axis, not beside its last label (which it overlapped).
      xAxis: { type: 'value', name: currency, nameLocation: 'middle', nameGap: 28 },
      yAxis: { type: 'category', inverse: true, data: teamRows.map((l) => l.team || '(none)') },
      series: [
        { name: 'held but unused', type: 'bar', data: teamRows.map((l) => Number(unusedCostMicro(l)) / 1e6) },
        { name: 'idle received', type: 'bar', data: teamRows.map((l) => Number(big(l.idleCostMicro)) / 1e6) },
        {
          name: 'no telemetry (use unknown)',
          type: 'bar',
          itemStyle: { color: OTHER_COLOUR, decal: { symbol: 'rect', dashArrayX: [1, 0], dashArrayY: [2, 4], rotation: -Math.PI / 4 } },
          data: teamRows.map((l) => Number(unknownCostMicro(l)) / 1e6),
        },
      ],
    }),
    [teamRows, currency],
  );

  const teamColumns = useMemo<Column<ChargebackLine>[]>(
    () => [
      { id: 'team', header: 'Team', cell: (l) => l.team },
      {
        id: 'unused',
        header: 'Held but unused',
        numeric: true,
        cell: (l) => (
          <Figure testId={`efficiency-unused-${l.team}`} value={unusedCostMicro(l)} text={formatMoney(unusedCostMicro(l), currency)} />
        ),
      },
      {
        id: 'idle',
        header: 'Idle cost received',
        numeric: true,
        cell: (l) => <Figure testId={`efficiency-idle-${l.team}`} value={big(l.idleCostMicro)} text={formatMoney(l.idleCostMicro, currency)} />,
      },
      {
        id: 'unknown',
        header: 'No telemetry',
        numeric: true,
        cell: (l) => (
          <Figure testId={`efficiency-unknown-${l.team}`} value={unknownCostMicro(l)} text={formatMoney(unknownCostMicro(l), currency)} />
        ),
      },
      { id: 'total', header: 'Total cost', numeric: true, cell: (l) => formatMoney(l.totalCostMicro, currency) },
      { id: 'efficiency', header: 'Efficiency', numeric: true, cell: (l) => <EfficiencyCell line={l} /> },
    ],
    [currency],
  );

  const workloadColumns = useMemo<Column<ChargebackLine>[]>(
    () => [
      {
        id: 'workload',
        header: 'Workload',
        cell: (l) => (
          <WorkloadLabel workload={l.workload} namespace={l.namespace} team={l.team}>
            {(name) => (
              <Link
                to={`/chargeback?${rangeQuery}&team=${encodeURIComponent(l.team ?? '')}&namespace=${encodeURIComponent(l.namespace ?? '')}&q=${encodeURIComponent(l.workload ?? '')}`}
              >
                {name}
              </Link>
            )}
          </WorkloadLabel>
        ),
      },
      { id: 'held', header: 'Held device-hours', numeric: true, cell: (l) => formatDeviceHours(l.heldMilliSeconds) },
      {
        id: 'unused',
        header: 'Unused device-hours',
        numeric: true,
        cell: (l) => (
          <Figure
            testId={`efficiency-workload-unused-${l.team}/${l.namespace}/${l.workload}`}
            value={unusedDeviceTime(l)}
            text={formatDeviceHours(unusedDeviceTime(l))}
          />
        ),
      },
      {
        id: 'unknown',
        header: 'No telemetry device-hours',
        numeric: true,
        cell: (l) => formatDeviceHours(unknownDeviceTime(l)),
      },
      { id: 'efficiency', header: 'Efficiency', numeric: true, cell: (l) => <EfficiencyCell line={l} /> },
      {
        id: 'explain',
        header: 'Explanation',
        cell: (l) => (
          <Link
            to={`/chargeback?${rangeQuery}&team=${encodeURIComponent(l.team ?? '')}&namespace=${encodeURIComponent(l.namespace ?? '')}&explain=${encodeURIComponent(l.workload ?? '')}&q=${encodeURIComponent(l.workload ?? '')}`}
          >
            Explain
          </Link>
        ),
      },
    ],
    [rangeQuery],
  );

  return (
    <section>
      <h1>Efficiency</h1>
      <TimeRangePicker range={range} />
      <p className="note">
        Held time without telemetry is shown apart, as no telemetry: how it was used is unknown, so it is never
        counted as unused, and efficiency is used time over the held time that had readings.
      </p>
      <h2>Idle waste by team</h2>
      <QueryView query={teams} what="the cost by team" height={260}>
        {() => (
          <>
            {teamRows.length > 0 && (
              <Chart
                label="Held but unused, idle and no-telemetry cost by team"
                option={wasteChart}
                height={Math.max(200, teamRows.length * 28 + 72)}
                testId="efficiency-chart"
                renderer="svg"
              />
            )}
            <DataTable
              caption="Per team: the chart's figures, the total cost and efficiency"
              columns={teamColumns}
              rows={teamRows}
              rowKey={(l) => l.team ?? ''}
              testId="efficiency-teams"
            />
          </>
        )}
      </QueryView>
      <h2>Least efficient workloads</h2>
      <QueryView query={workloads} what="the workloads" height={260}>
        {() => (
          <DataTable
            caption={`The ${worstShown} workloads that held the most device time unused`}
            columns={workloadColumns}
            rows={worst}
            rowKey={(l) => `${l.team}/${l.namespace}/${l.workload}`}
            testId="efficiency-workloads"
          />
        )}
      </QueryView>
    </section>
  );
}
