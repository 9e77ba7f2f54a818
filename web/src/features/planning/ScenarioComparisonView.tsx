// A scenario beside the baseline (docs/whatif.md): the projected bill of the
// next month per team, per flavor its utilisation and the day capacity runs
// out, and the recommendations per team and flavor. Money is exact
// micro-units formatted with BigInt, as on every page.
import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { big, formatDevices, formatMoney, formatTime } from '../../format/numbers';
import type { ReactNode } from 'react';
import type { FlavorOutlook, Recommendation, ScenarioComparison, ScenarioSide, TeamBill } from '../../api/types';
import { dayValue, formatDay, formatMilliHours, formatPpm } from './planningFormat';

type Side = 'baseline' | 'scenario';

// Rows keyed by name across both sides, in order of first appearance.
function paired<T>(baseline: T[], scenario: T[], key: (item: T) => string) {
  const rows = new Map<string, { name: string; baseline?: T; scenario?: T }>();
  for (const item of baseline) rows.set(key(item), { name: key(item), baseline: item });
  for (const item of scenario) rows.set(key(item), { ...(rows.get(key(item)) ?? { name: key(item) }), scenario: item });
  return [...rows.values()];
}

function signedMoney(delta: bigint, currency: string): string {
  if (delta === 0n) return 'unchanged';
  return `${delta > 0n ? '+' : '−'}${formatMoney(delta > 0n ? delta : -delta, currency)}`;
}

// A bill with a flavor no stored forecast covers is unknown: its figure leaves that flavor out.
function known(bill: TeamBill | undefined): boolean {
  return (bill?.unknownFlavors ?? []).length === 0;
}

function Bills({ comparison }: { comparison: ScenarioComparison }) {
  const currency = comparison.currency || 'USD';
  const baseline = comparison.baseline ?? {};
  const scenario = comparison.scenario ?? {};
  type Row = ReturnType<typeof paired<TeamBill>>[number];
  const money = (side: Side) => (row: Row) => {
    const bill = row[side];
    return bill ? (
      <Figure
        testId={`scenario-bill-${side}-${row.name}`}
        value={big(bill.micro)}
        text={known(bill) ? formatMoney(bill.micro, currency) : 'unknown'}
      />
    ) : (
      '–'
    );
  };
  const columns: Column<Row>[] = [
    { id: 'team', header: 'Team', cell: (r) => r.name },
    { id: 'baseline', header: 'Baseline', numeric: true, cell: money('baseline') },
    { id: 'scenario', header: 'Scenario', numeric: true, cell: money('scenario') },
    {
      id: 'change',
      header: 'Change',
      numeric: true,
      cell: (r) =>
        known(r.baseline) && known(r.scenario) ? signedMoney(big(r.scenario?.micro) - big(r.baseline?.micro), currency) : 'unknown',
    },
    {
      id: 'held',
      header: 'Held device-hours (baseline → scenario)',
      numeric: true,
      cell: (r) => `${formatMilliHours(r.baseline?.heldMilliHours)} → ${formatMilliHours(r.scenario?.heldMilliHours)}`,
    },
  ];
  const total = (side: Side, s: ScenarioSide) => (
    <Figure testId={`scenario-total-${side}`} value={big(s.totalMicro)} text={formatMoney(s.totalMicro, currency)} />
  );
  const idle = (side: Side, s: ScenarioSide) => (
    <Figure testId={`scenario-idle-${side}`} value={big(s.idleMicro)} text={formatMoney(s.idleMicro, currency)} />
  );
  return (
    <>
      <DataTable
        caption={`Projected bill per team, ${formatTime(comparison.monthStart)} to ${formatTime(comparison.monthEnd)} (held time × price)`}
        columns={columns}
        rows={paired(baseline.bills ?? [], scenario.bills ?? [], (b) => b.team ?? '')}
        rowKey={(r) => r.name}
        testId="scenario-bills"
      />
      <table className="data-table" data-testid="scenario-bill-totals">
        <caption>What no team is projected to hold, and the fleet’s cost</caption>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col" className="num">Baseline</th>
            <th scope="col" className="num">Scenario</th>
            <th scope="col" className="num">Change</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">idle</th>
            <td className="num">{idle('baseline', baseline)}</td>
            <td className="num">{idle('scenario', scenario)}</td>
            <td className="num">{signedMoney(big(scenario.idleMicro) - big(baseline.idleMicro), currency)}</td>
          </tr>
          <tr>
            <th scope="row">total (teams + idle)</th>
            <td className="num">{total('baseline', baseline)}</td>
            <td className="num">{total('scenario', scenario)}</td>
            <td className="num">{signedMoney(big(scenario.totalMicro) - big(baseline.totalMicro), currency)}</td>
          </tr>
        </tbody>
      </table>
    </>
  );
}

function Flavors({ comparison }: { comparison: ScenarioComparison }) {
  type Row = ReturnType<typeof paired<FlavorOutlook>>[number];
  const both = (label: string, cell: (f: FlavorOutlook | undefined, side: Side, name: string) => ReactNode) => [
    { id: `${label}-baseline`, header: `${label} (baseline)`, cell: (r: Row) => cell(r.baseline, 'baseline', r.name) },
    { id: `${label}-scenario`, header: `${label} (scenario)`, cell: (r: Row) => cell(r.scenario, 'scenario', r.name) },
  ];
  const day = (which: 'p50' | 'p90') => (f: FlavorOutlook | undefined, side: Side, name: string) => {
    if (!f) return '–';
    const at = which === 'p50' ? f.exhaustedP50 : f.exhaustedP90;
    return <Figure testId={`scenario-exhaustion-${which}-${side}-${name}`} value={dayValue(at)} text={formatDay(at)} />;
  };
  const columns: Column<Row>[] = [
    { id: 'flavor', header: 'Flavor', cell: (r) => r.name },
    ...both('Devices', (f) => (f ? formatDevices(f.capacityMilli) : '–')),
    ...both('Utilisation', (f, side, name) =>
      f ? (
        <Figure
          testId={`scenario-utilisation-${side}-${name}`}
          value={big(f.utilisationPpm)}
          text={f.heldUnknown ? 'unknown' : formatPpm(f.utilisationPpm)}
        />
      ) : (
        '–'
      ),
    ),
    ...both('Runs out p50', day('p50')),
    ...both('Runs out p90', day('p90')),
    ...both('Model', (f) => f?.model ?? '–'),
  ];
  return (
    <DataTable
      caption="Per flavor: devices, utilisation over the month (p50), and the day demand first exceeds capacity"
      columns={columns}
      rows={paired(comparison.baseline?.flavors ?? [], comparison.scenario?.flavors ?? [], (f) => f.flavor ?? '')}
      rowKey={(r) => r.name}
      testId="scenario-flavors"
    />
  );
}

function Recommendations({ comparison }: { comparison: ScenarioComparison }) {
  type Row = ReturnType<typeof paired<Recommendation>>[number];
  const quota = (side: Side) => (r: Row) => {
    const rec = r[side];
    return rec ? (
      <Figure testId={`scenario-rec-${side}-${r.name}`} value={big(rec.recommendedMilli)} text={formatDevices(rec.recommendedMilli)} />
    ) : (
      '–'
    );
  };
  const columns: Column<Row>[] = [
    { id: 'key', header: 'Team / flavor', cell: (r) => r.name },
    { id: 'baseline', header: 'Recommended (baseline)', numeric: true, cell: quota('baseline') },
    { id: 'scenario', header: 'Recommended (scenario)', numeric: true, cell: quota('scenario') },
    {
      id: 'change',
      header: 'Change',
      numeric: true,
      cell: (r) => {
        const delta = big(r.scenario?.recommendedMilli) - big(r.baseline?.recommendedMilli);
        return delta === 0n ? 'unchanged' : `${delta > 0n ? '+' : '−'}${formatDevices(delta > 0n ? delta : -delta)}`;
      },
    },
    { id: 'demand', header: 'Demand (baseline → scenario)', numeric: true, cell: (r) => `${formatDevices(r.baseline?.demandMilli)} → ${formatDevices(r.scenario?.demandMilli)}` },
    { id: 'bound', header: 'Bound by (scenario)', cell: (r) => <span title={r.scenario?.explanation}>{(r.scenario?.boundBy ?? '').replace(/_/g, ' ')}</span> },
  ];
  const key = (r: Recommendation) => `${r.team}/${r.flavor}`;
  return (
    <DataTable
      caption={`Recommended quota per team and flavor (devices), with every capacity change in force (${formatTime(comparison.recommendationsAt)})`}
      columns={columns}
      rows={paired(comparison.baseline?.recommendations ?? [], comparison.scenario?.recommendations ?? [], key)}
      rowKey={(r) => r.name}
      testId="scenario-recommendations"
    />
  );
}

function models(side: ScenarioSide | undefined): string {
  const entries = Object.entries(side?.projectionModels ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return entries.length ? entries.map(([model, count]) => `${model} ${count}`).join(', ') : 'none';
}

export function ScenarioComparisonView({ comparison }: { comparison: ScenarioComparison }) {
  return (
    <div data-testid="scenario-comparison">
      <p>
        The state the scenario was applied to ends at {formatTime(comparison.historyEnd)}; policy version{' '}
        {comparison.baseline?.policyVersion ?? 0} (baseline) and{' '}
        {comparison.scenario?.policyVersion ? `version ${comparison.scenario.policyVersion}` : 'the active policy with a patch'}{' '}
        (scenario). Capacity is looked at until {formatTime(comparison.horizonEnd)}.
      </p>
      <h3>Projected bill</h3>
      <Bills comparison={comparison} />
      <h3>Utilisation and when capacity runs out</h3>
      <Flavors comparison={comparison} />
      <p className="note" data-testid="scenario-models">
        Team × flavor series projected by each model: baseline {models(comparison.baseline)}; scenario {models(comparison.scenario)}.
        “recent_average” is the fallback where no model could be fitted.
      </p>
      <h3>Recommendations</h3>
      <Recommendations comparison={comparison} />
    </div>
  );
}
