// Top waste: devices held idle over the range (GET /v1/insights/waste), in
// money and device-hours, held time without telemetry said apart (it is
// never waste), the efficiency of the scope, the workloads the most wasted
// first, and a workload's idle runs on expanding it.
import { createContext, useContext, useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { insightsWaste } from '../../api/endpoints';
import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { WorkloadLabel } from '../../components/WorkloadLabel';
import { parseWorkload } from '../../format/workloadName';
import { formatDeviceHours, formatFraction, formatMoney } from '../../format/numbers';
import type { TimeRange } from '../../time/range';
import type { WasteReport, WorkloadWaste } from '../../api/types';
import { EfficiencyFigure } from './EfficiencyFigure';
import { IdleRunsPanel } from './IdleRunsPanel';
import { TeamWasteTable } from './TeamWasteTable';
import { wasteParams } from './insightsView';
import { durationWords } from './insightsWords';

export const workloadKey = (w: { team?: string; namespace?: string; workload?: string }) =>
  `${w.team ?? ''}/${w.namespace ?? ''}/${w.workload ?? ''}`;

export function WasteSection({ range, team }: { range: TimeRange; team: string | null }) {
  const params = wasteParams(range, team);
  const waste = useQuery({
    queryKey: ['insights', 'waste', params],
    queryFn: () => insightsWaste(params),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="insights-waste-heading">
      <h2 id="insights-waste-heading">Top waste</h2>
      <QueryView query={waste} what="the waste" height={320}>
        {(report) => <WasteReportView report={report} team={team} range={range} />}
      </QueryView>
    </section>
  );
}

function WasteReportView({ report, team, range }: { report: WasteReport; team: string | null; range: TimeRange }) {
  const currency = report.currency || 'USD';
  const [open, setOpen] = useState<string | null>(null);
  const workloads = report.workloads ?? [];
  const opened = workloads.find((w) => workloadKey(w) === open);
  const score = report.efficiency?.find((e) => (e.team ?? '') === (team ?? ''));
  const rangeQuery = range.preset ? `range=${range.preset}` : `start=${range.start}&end=${range.end}`;
  // The columns stay the same while a workload opens (new columns would draw
  // the table afresh and lose the focus on its button): the toggle reads
  // which one is open from the context.
  const columns = useMemo(() => workloadColumns(currency, rangeQuery), [currency, rangeQuery]);
  const openRuns = useMemo(() => ({ open, setOpen }), [open]);
  const count = report.workloadCount ?? workloads.length;
  return (
    <>
      <p className="note">
        Idle: devices held with {idleThreshold(report.idleBelow)} for at least {durationWords(report.idleForSeconds)} (the
        policy’s <code>insights</code> options). Held time without telemetry is unknown: not counted as waste.
      </p>
      <dl className="figures">
        <dt>Wasted on idle devices</dt>
        <dd>
          <Figure testId="insights-waste-cost" value={report.wastedCostMicro ?? '0'} text={formatMoney(report.wastedCostMicro, currency)} />{' '}
          over <Figure testId="insights-waste-time" value={report.wastedMilliSeconds ?? '0'} text={formatDeviceHours(report.wastedMilliSeconds)} />{' '}
          device-hours
        </dd>
        <dt>No telemetry</dt>
        <dd>
          <Figure testId="insights-waste-unknown" value={report.unknownMilliSeconds ?? '0'} text={formatDeviceHours(report.unknownMilliSeconds)} />{' '}
          device-hours held without readings: not counted as waste
        </dd>
        <dt>Efficiency of {team === null ? 'the fleet' : `team ${team}`}</dt>
        <dd>
          <EfficiencyFigure score={score} testId="insights-efficiency" />
        </dd>
      </dl>
      {workloads.length === 0 ? (
        <p data-testid="insights-waste-empty">No workload held devices idle in this range.</p>
      ) : (
        <>
          <OpenRuns.Provider value={openRuns}>
            <DataTable
              caption={
                count > workloads.length
                  ? `The ${workloads.length} most wasteful of ${count} workloads with idle runs`
                  : `The ${count} workload${count === 1 ? '' : 's'} with idle runs, the most wasted first`
              }
              columns={columns}
              rows={workloads}
              rowKey={workloadKey}
              testId="insights-waste-table"
            />
          </OpenRuns.Provider>
          {workloads.some((w) => w.busyButLight) && (
            <p className="note" data-testid="insights-busy-note">
              <strong>Busy but light</strong>: its duty cycle is high while its SM activity is low: kernels run, but use
              little of each GPU. It is not idle and not counted as waste, but a smaller slice or more work per device would
              serve it for less.
            </p>
          )}
          {opened && <IdleRunsPanel workload={opened} name={parseWorkload(opened.workload).name} currency={currency} />}
        </>
      )}
      <TeamWasteTable report={report} currency={currency} />
    </>
  );
}

// The policy's idle threshold: activity below it (0..1) is idle.
function idleThreshold(idleBelow: number | undefined): string {
  return `activity below ${formatFraction(idleBelow)}`;
}

function workloadColumns(currency: string, rangeQuery: string): Column<WorkloadWaste>[] {
  return [
    {
      id: 'workload',
      header: 'Workload',
      cell: (w) => (
        <WorkloadLabel workload={w.workload} namespace={w.namespace} team={w.team}>
          {(name) => (
            <>
              {/* Its chargeback lines over the same range: what it cost in all, and why. */}
              <Link
                to={`/chargeback?${rangeQuery}&team=${encodeURIComponent(w.team ?? '')}&namespace=${encodeURIComponent(w.namespace ?? '')}&q=${encodeURIComponent(w.workload ?? '')}`}
              >
                {name}
              </Link>
              {w.busyButLight && (
                <span className="badge" data-testid={`insights-busy-${workloadKey(w)}`} title="Duty cycle high, SM activity low">
                  busy but light
                </span>
              )}
            </>
          )}
        </WorkloadLabel>
      ),
    },
    {
      id: 'cost',
      header: 'Wasted',
      numeric: true,
      cell: (w) => (
        <Figure testId={`insights-waste-row-cost-${workloadKey(w)}`} value={w.wastedCostMicro ?? '0'} text={formatMoney(w.wastedCostMicro, currency)} />
      ),
    },
    {
      id: 'time',
      header: 'Idle device-hours',
      numeric: true,
      cell: (w) => (
        <Figure testId={`insights-waste-row-time-${workloadKey(w)}`} value={w.wastedMilliSeconds ?? '0'} text={formatDeviceHours(w.wastedMilliSeconds)} />
      ),
    },
    { id: 'held', header: 'Held device-hours', numeric: true, cell: (w) => formatDeviceHours(w.heldMilliSeconds) },
    {
      id: 'unknown',
      header: 'No telemetry device-hours',
      numeric: true,
      cell: (w) => formatDeviceHours(w.unknownMilliSeconds),
    },
    { id: 'runs', header: 'Idle runs', numeric: true, cell: (w) => <RunsToggle workload={w} /> },
  ];
}

// Which workload's runs are open: one at a time.
const OpenRuns = createContext<{ open: string | null; setOpen: (key: string | null) => void }>({
  open: null,
  setOpen: () => undefined,
});

function RunsToggle({ workload }: { workload: WorkloadWaste }) {
  const { open, setOpen } = useContext(OpenRuns);
  const key = workloadKey(workload);
  const expanded = open === key;
  return (
    <button
      type="button"
      className="link"
      aria-expanded={expanded}
      aria-controls={expanded ? 'insights-runs' : undefined}
      data-testid={`insights-waste-row-runs-${key}`}
      data-value={String(workload.runCount ?? 0)}
      onClick={() => setOpen(expanded ? null : key)}
    >
      {workload.runCount ?? 0} {expanded ? '(hide)' : '(show)'}
    </button>
  );
}
