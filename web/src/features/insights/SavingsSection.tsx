// Top savings: what to resize (GET /v1/insights/rightsizing), the largest
// saving a month first, each with the evidence and how much telemetry it
// stands on.
import { useQuery } from '@tanstack/react-query';
import { insightsRightsizing } from '../../api/endpoints';
import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { WorkloadLabel } from '../../components/WorkloadLabel';
import { big, formatMoney, formatTime } from '../../format/numbers';
import { byDescending } from '../efficiency/waste';
import type { RightsizingRecommendation, RightsizingReport } from '../../api/types';
import { rightsizingParams } from './insightsView';
import { kindWords } from './insightsWords';

export const recommendationKey = (r: RightsizingRecommendation) =>
  `${r.team ?? ''}/${r.namespace ?? ''}/${r.workload ?? ''}/${r.kind ?? ''}`;

export function SavingsSection({ team }: { team: string | null }) {
  const params = rightsizingParams(team);
  const report = useQuery({ queryKey: ['insights', 'rightsizing', params], queryFn: () => insightsRightsizing(params) });
  return (
    <section aria-labelledby="insights-savings-heading">
      <h2 id="insights-savings-heading">Top savings</h2>
      <QueryView query={report} what="the rightsizing recommendations" height={240}>
        {(data) => <SavingsView report={data} />}
      </QueryView>
    </section>
  );
}

// Observed minutes as hours (or minutes under one), for the confidence.
function observedWords(minutes: string | undefined): string {
  const m = big(minutes);
  return m < 60n ? `${m} min` : `${m / 60n} h`;
}

function SavingsView({ report }: { report: RightsizingReport }) {
  const currency = report.currency || 'USD';
  // The API lists them the largest saving first; kept so even if it did not.
  const rows = [...(report.recommendations ?? [])].sort(byDescending((r) => big(r.savingsMicroPerMonth)));
  const count = report.recommendationCount ?? rows.length;
  const columns: Column<RightsizingRecommendation>[] = [
    { id: 'workload', header: 'Workload', cell: (r) => <WorkloadLabel workload={r.workload} namespace={r.namespace} team={r.team} /> },
    { id: 'kind', header: 'Change', cell: (r) => kindWords(r.kind) },
    {
      id: 'what',
      header: 'Current → proposed',
      cell: (r) => (
        <>
          {r.current} → <strong>{r.proposed}</strong>
        </>
      ),
    },
    {
      id: 'savings',
      header: 'Saves a month',
      numeric: true,
      cell: (r) => (
        <Figure
          testId={`insights-saving-${recommendationKey(r)}`}
          value={r.savingsMicroPerMonth ?? '0'}
          text={formatMoney(r.savingsMicroPerMonth, currency)}
        />
      ),
    },
    { id: 'evidence', header: 'Evidence', cell: (r) => r.evidence },
    {
      id: 'confidence',
      header: 'Confidence',
      cell: (r) => (
        <span data-testid={`insights-confidence-${recommendationKey(r)}`}>
          {r.confidence || 'unknown'} <span className="workload-context">({observedWords(r.observedMinutes)} observed)</span>
        </span>
      ),
    },
  ];
  return (
    <>
      <p>
        Together{' '}
        <Figure
          testId="insights-savings-total"
          value={report.savingsMicroPerMonth ?? '0'}
          text={formatMoney(report.savingsMicroPerMonth, currency)}
        />{' '}
        a month (a 30-day month at the price in force at the lookback’s end) from {count} recommendation{count === 1 ? '' : 's'}, measured from{' '}
        {formatTime(report.start)} to {formatTime(report.end)}
        {report.computedAt ? `, computed ${formatTime(report.computedAt)}` : ''}.
      </p>
      {rows.length === 0 ? (
        <p data-testid="insights-savings-empty">Nothing to resize: every workload uses what it holds.</p>
      ) : (
        <DataTable
          caption={count > rows.length ? `The ${rows.length} largest of ${count} savings` : 'What to resize, the largest saving first'}
          columns={columns}
          rows={rows}
          rowKey={recommendationKey}
          testId="insights-savings-table"
        />
      )}
    </>
  );
}
