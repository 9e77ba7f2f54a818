// Budgets (GET /v1/insights/budgets): per team, the month's amount, what
// was spent so far, and what is projected by the month's end, as figures, a
// bar with the amount marked and the status in words (and in colour).
import { useQuery } from '@tanstack/react-query';
import { insightsBudgets } from '../../api/endpoints';
import { DataTable, type Column } from '../../components/DataTable';
import { Figure } from '../../components/Figure';
import { QueryView } from '../../components/QueryView';
import { formatMoney, formatTime } from '../../format/numbers';
import type { Budget, BudgetReport } from '../../api/types';
import { BudgetBar } from './BudgetBar';
import { budgetParams } from './insightsView';
import { isBudgetStatus, statusWords } from './insightsWords';

const budgetKey = (b: Budget) => `${b.team ?? ''}`;
const statusSign = { under: '✓', projected_over: '!', over: '✕' } as const;

export function BudgetsSection({ team }: { team: string | null }) {
  const params = budgetParams(team);
  const report = useQuery({ queryKey: ['insights', 'budgets', params], queryFn: () => insightsBudgets(params) });
  return (
    <section aria-labelledby="insights-budgets-heading">
      <h2 id="insights-budgets-heading">Budgets</h2>
      <QueryView query={report} what="the budgets" height={200}>
        {(data) => <BudgetsView report={data} />}
      </QueryView>
    </section>
  );
}

function BudgetsView({ report }: { report: BudgetReport }) {
  const currency = report.currency || 'USD';
  const budgets = report.budgets ?? [];
  if (budgets.length === 0) {
    return (
      <p data-testid="insights-budgets-empty">
        No budget for this month: the policy’s <code>budgets</code> name none for these teams.
      </p>
    );
  }
  const money = (testId: string, value: string | undefined) => (
    <Figure testId={testId} value={value ?? '0'} text={formatMoney(value, currency)} />
  );
  const columns: Column<Budget>[] = [
    { id: 'team', header: 'Team', cell: (b) => b.team },
    { id: 'month', header: 'Month', cell: (b) => b.month },
    { id: 'amount', header: 'Budget', numeric: true, cell: (b) => money(`insights-budget-amount-${budgetKey(b)}`, b.amountMicro) },
    {
      id: 'spent',
      header: 'Spent',
      numeric: true,
      cell: (b) => (
        <>
          {money(`insights-budget-spent-${budgetKey(b)}`, b.spentMicro)}
          <div className="workload-context">to {formatTime(b.through)}</div>
        </>
      ),
    },
    {
      id: 'projected',
      header: 'Projected',
      numeric: true,
      cell: (b) => money(`insights-budget-projected-${budgetKey(b)}`, b.projectedMicro),
    },
    { id: 'bar', header: 'Against the budget', cell: (b) => <BudgetBar budget={b} currency={currency} /> },
    {
      id: 'status',
      header: 'Status',
      cell: (b) => (
        <span
          className={`status status-${isBudgetStatus(b.status) ? b.status : 'other'}`}
          data-testid={`insights-budget-status-${budgetKey(b)}`}
          data-value={b.status ?? ''}
        >
          {isBudgetStatus(b.status) ? `${statusSign[b.status]} ` : ''}
          {statusWords(b.status)}
        </span>
      ),
    },
    // Each budget's rest of the month is forecast from its own team's days.
    { id: 'method', header: 'How the rest was forecast', cell: (b) => <span className="method">{b.method}</span> },
  ];
  return (
    <>
      <DataTable caption="This month’s budgets: spent so far and projected by the month’s end" columns={columns} rows={budgets} rowKey={budgetKey} testId="insights-budgets-table" />
      <p className="note">
        The bar: spent so far (blue, red once past the budget), then the forecast rest of the month (light orange) up to
        the projection; the black line marks the budget. Projected is spent plus the forecast rest.
      </p>
    </>
  );
}
