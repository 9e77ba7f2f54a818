// Why spend changed (GET /v1/insights/changes): from the window of equal
// length before the range to the range, the change split into drivers that
// add up to it exactly, as a waterfall and, beside it, as a table with each
// driver's largest contributions.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { insightsChanges } from '../../api/endpoints';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { WorkloadLabel } from '../../components/WorkloadLabel';
import { big, formatMoney, formatTime } from '../../format/numbers';
import type { TimeRange } from '../../time/range';
import type { SpendChangeReport, SpendContribution, SpendDriver } from '../../api/types';
import { changeParams } from './insightsView';
import { driverWords } from './insightsWords';
import { Waterfall, signedMoney } from './Waterfall';
import { driversMismatch, waterfallSteps } from './waterfall';

export function SpendChangeSection({ range, team }: { range: TimeRange; team: string | null }) {
  const params = changeParams(range, team);
  const report = useQuery({
    queryKey: ['insights', 'changes', params],
    queryFn: () => insightsChanges(params),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="insights-change-heading">
      <h2 id="insights-change-heading">Why spend changed</h2>
      <QueryView query={report} what="the change of spend" height={300}>
        {(data) => <SpendChangeView report={data} />}
      </QueryView>
    </section>
  );
}

function SpendChangeView({ report }: { report: SpendChangeReport }) {
  const currency = report.currency || 'USD';
  const change = big(report.changeMicro);
  const mismatch = driversMismatch(report);
  const drivers = report.drivers ?? [];
  if (drivers.length === 0 && big(report.previousCostMicro) === 0n && big(report.currentCostMicro) === 0n) {
    return <p data-testid="insights-change-empty">No spend in this range or the one before it: nothing changed.</p>;
  }
  return (
    <>
      <p>
        From <Figure testId="insights-change-previous" value={report.previousCostMicro ?? '0'} text={formatMoney(report.previousCostMicro, currency)} />{' '}
        ({formatTime(report.previousStart)} to {formatTime(report.start)}) to{' '}
        <Figure testId="insights-change-current" value={report.currentCostMicro ?? '0'} text={formatMoney(report.currentCostMicro, currency)} />{' '}
        ({formatTime(report.start)} to {formatTime(report.end)}):{' '}
        <strong>
          <Figure testId="insights-change-total" value={report.changeMicro ?? '0'} text={signedMoney(change, currency)} />
        </strong>
        {change > 0n ? ' more' : change < 0n ? ' less' : ''}.
      </p>
      {mismatch !== 0n && (
        <p role="alert" className="error" data-testid="insights-change-mismatch">
          The drivers do not add up to the change: {signedMoney(mismatch, currency)} is not explained by them.
        </p>
      )}
      <div className="waterfall-layout">
        <figure>
          <Waterfall
            steps={waterfallSteps(report)}
            currency={currency}
            label={`Waterfall of the change of spend: previous total, ${drivers.length} drivers, current total; the table beside it has the figures`}
          />
          <figcaption className="note">Red bars (+) raised spend, green bars (−) lowered it.</figcaption>
        </figure>
        <DriverTable drivers={drivers} currency={currency} />
      </div>
    </>
  );
}

function DriverTable({ drivers, currency }: { drivers: SpendDriver[]; currency: string }) {
  return (
    <table className="data-table" data-testid="insights-drivers-table">
      <caption>Each driver and the workloads most behind it</caption>
      <thead>
        <tr>
          <th scope="col">Driver</th>
          <th scope="col" className="num">
            Change
          </th>
          <th scope="col">Largest contributions</th>
        </tr>
      </thead>
      <tbody>
        {drivers.map((d) => (
          <tr key={d.name}>
            <th scope="row">{driverWords(d.name)}</th>
            <td className="num">
              <Figure testId={`insights-driver-${d.name ?? ''}`} value={d.changeMicro ?? '0'} text={signedMoney(big(d.changeMicro), currency)} />
            </td>
            <td>
              {(d.top ?? []).length === 0 ? (
                <span className="unknown">none</span>
              ) : (
                <ul className="contributions">
                  {(d.top ?? []).map((c, i) => (
                    <li key={`${c.team}/${c.namespace}/${c.workload}/${c.model}`}>
                      <ContributionLabel contribution={c} />
                      {c.model ? <span className="workload-context"> on {c.model}</span> : null}:{' '}
                      <Figure
                        testId={`insights-driver-${d.name ?? ''}-top-${i}`}
                        value={c.changeMicro ?? '0'}
                        text={signedMoney(big(c.changeMicro), currency)}
                      />
                    </li>
                  ))}
                </ul>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

// A workload by its name; a contribution of no workload (the idle capacity
// a team received, a team's shared and fixed lines) by what it is.
function ContributionLabel({ contribution: c }: { contribution: SpendContribution }) {
  if (c.workload) return <WorkloadLabel workload={c.workload} namespace={c.namespace} team={c.team} />;
  if (c.team === 'idle') return <>idle capacity</>;
  return <>{c.namespace ? `team ${c.team ?? ''}, namespace ${c.namespace}` : `team ${c.team ?? ''}`} (not a workload)</>;
}
