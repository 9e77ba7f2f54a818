import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import {
  budgetReport,
  plannerToken,
  rightsizingReport,
  spendChangeReport,
  teamToken,
  testRange,
  testRangeQuery,
  wasteReport,
} from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { recorded, requests, server } from '../../test/server';

const paramsOf = (path: string) => recorded(path).map((u) => Object.fromEntries(u.searchParams));
const insightsCalls = () => requests.filter((u) => u.pathname.startsWith('/v1/insights/'));
const refuse = (status: number, code: number, name: string, message: string) =>
  HttpResponse.json({ code, status: name, message }, { status });

test('top waste: the totals, unknown apart, the fleet’s efficiency and the workloads, as the API gives them', async () => {
  renderApp(`/insights?${testRangeQuery}`, plannerToken);
  expect(await screen.findByRole('heading', { level: 1, name: 'Insights' })).toBeInTheDocument();
  expect(await screen.findByTestId('insights-waste-cost')).toHaveTextContent('EUR 12.35');
  expect(screen.getByTestId('insights-waste-cost')).toHaveAttribute('data-value', wasteReport.wastedCostMicro);
  expect(screen.getByTestId('insights-waste-time')).toHaveTextContent('31.0');
  expect(screen.getByTestId('insights-waste-time')).toHaveAttribute('data-value', '111600000');
  expect(screen.getByTestId('insights-waste-unknown')).toHaveTextContent('2.0');
  expect(screen.getByTestId('insights-waste-unknown').parentElement).toHaveTextContent('not counted as waste');
  // The fleet's score (team ""), with its signal in words.
  expect(screen.getByTestId('insights-efficiency')).toHaveTextContent('42.0%');
  expect(screen.getByTestId('insights-efficiency').parentElement).toHaveTextContent('SM activity where measured, else duty cycle');
  expect(screen.getByText(/activity below 5\.0% for at least 4 h/)).toBeInTheDocument();

  const table = screen.getByTestId('insights-waste-table');
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows.map((r) => r.querySelector('td')?.textContent)).toEqual([
    expect.stringMatching(/^train-a/),
    expect.stringMatching(/^api/),
  ]);
  expect(within(table).getByRole('caption')).toHaveTextContent('The 2 most wasteful of 3 workloads');
  // A workload leads to its chargeback lines over the same range.
  expect(within(table).getByRole('link', { name: 'train-a' })).toHaveAttribute(
    'href',
    `/chargeback?${testRangeQuery}&team=ml&namespace=train&q=Job%2Ftrain-a`,
  );
  expect(screen.getByTestId('insights-waste-row-cost-ml/train/Job/train-a')).toHaveTextContent('EUR 9.00');
  expect(screen.getByTestId('insights-waste-row-cost-ml-serving/serve/Deployment/api')).toHaveAttribute('data-value', '3345678');
  expect(screen.getByTestId('insights-waste-row-runs-ml-serving/serve/Deployment/api')).toHaveTextContent('25');
  // Busy but light: flagged on its row only, and explained.
  expect(screen.getByTestId('insights-busy-ml-serving/serve/Deployment/api')).toHaveTextContent('busy but light');
  expect(screen.queryByTestId('insights-busy-ml/train/Job/train-a')).toBeNull();
  expect(screen.getByTestId('insights-busy-note')).toHaveTextContent('duty cycle is high while its SM activity is low');

  // Per team: waste and efficiency; a team held without readings says so, not 0%.
  expect(screen.getByTestId('insights-team-cost-ml')).toHaveAttribute('data-value', '9000000');
  expect(screen.getByTestId('insights-team-efficiency-ml')).toHaveTextContent('37.5%');
  expect(screen.getByTestId('insights-team-efficiency-web')).toHaveTextContent('no telemetry');
  expect(paramsOf('/v1/insights/waste')).toEqual([{ ...testRange, limit: '20' }]);
});

test('a workload’s idle runs open on expanding it and close again', async () => {
  renderApp(`/insights?${testRangeQuery}`, plannerToken);
  const toggle = await screen.findByTestId('insights-waste-row-runs-ml/train/Job/train-a');
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(screen.queryByTestId('insights-runs')).toBeNull();
  await userEvent.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const panel = screen.getByTestId('insights-runs');
  expect(within(panel).getByRole('heading')).toHaveTextContent('Idle runs of train-a');
  const rows = within(panel).getAllByRole('row').slice(1);
  expect(rows).toHaveLength(2);
  expect(rows[0]).toHaveTextContent('2026-12-01 00:00:00 UTC');
  expect(rows[0]).toHaveTextContent('1.2% (SM activity)');
  expect(rows[1]).toHaveTextContent('0.5');
  expect(within(panel).getByTestId('insights-run-cost-0')).toHaveAttribute('data-value', '6750000');
  // The API keeps at most 20 runs of a workload; the caption says how many there were.
  await userEvent.click(screen.getByTestId('insights-waste-row-runs-ml-serving/serve/Deployment/api'));
  expect(within(screen.getByTestId('insights-runs')).getByRole('caption')).toHaveTextContent('The 1 longest of its 25 idle runs');
  await userEvent.click(screen.getByTestId('insights-waste-row-runs-ml-serving/serve/Deployment/api'));
  expect(screen.queryByTestId('insights-runs')).toBeNull();
});

test('top savings: the largest saving a month first, with kind, change, evidence and confidence', async () => {
  renderApp(`/insights?${testRangeQuery}`, plannerToken);
  const total = await screen.findByTestId('insights-savings-total');
  // Beyond 2^53 micro-units: exact.
  expect(total).toHaveTextContent('EUR 9,007,199,254.99');
  expect(total).toHaveAttribute('data-value', rightsizingReport.savingsMicroPerMonth);
  const table = screen.getByTestId('insights-savings-table');
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows[0]).toHaveTextContent('A cheaper flavor');
  expect(rows[0]).toHaveTextContent('flavor a100-pool → flavor v100-pool');
  expect(rows[0]).toHaveTextContent('throughput per cost 2.1x');
  expect(rows[1]).toHaveTextContent('A smaller slice');
  expect(rows[1]).toHaveTextContent('1 x H100-SXM5-80GB → MIG 3g.40gb');
  expect(screen.getByTestId('insights-saving-ml/train/Job/train-a/cheaper_flavor')).toHaveTextContent('EUR 9,007,199,254.74');
  expect(screen.getByTestId('insights-saving-ml-serving/serve/Deployment/api/smaller_slice')).toHaveTextContent('EUR 0.25');
  expect(screen.getByTestId('insights-confidence-ml/train/Job/train-a/cheaper_flavor')).toHaveTextContent('high (336 h observed)');
  expect(screen.getByTestId('insights-confidence-ml-serving/serve/Deployment/api/smaller_slice')).toHaveTextContent('low (45 min observed)');
  expect(paramsOf('/v1/insights/rightsizing')).toEqual([{ limit: '20' }]);
});

test('savings arrive in any order and are shown the largest first', async () => {
  server.use(
    http.get('*/v1/insights/rightsizing', () =>
      HttpResponse.json({ ...rightsizingReport, recommendations: [...(rightsizingReport.recommendations ?? [])].reverse() }),
    ),
  );
  renderApp(`/insights?${testRangeQuery}`, plannerToken);
  const table = await screen.findByTestId('insights-savings-table');
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows[0]).toHaveTextContent('A cheaper flavor');
});

test('why spend changed: totals, each driver as a waterfall step and in the table with its workloads', async () => {
  renderApp(`/insights?${testRangeQuery}`, plannerToken);
  expect(await screen.findByTestId('insights-change-previous')).toHaveTextContent('EUR 100.00');
  expect(screen.getByTestId('insights-change-current')).toHaveTextContent('EUR 130.50');
  expect(screen.getByTestId('insights-change-total')).toHaveTextContent('+EUR 30.50');
  expect(screen.getByTestId('insights-change-total')).toHaveAttribute('data-value', spendChangeReport.changeMicro);
  expect(screen.queryByTestId('insights-change-mismatch')).toBeNull();

  const chart = screen.getByRole('img', { name: /Waterfall of the change of spend/ });
  const steps = [...chart.querySelectorAll('g[data-step]')].map((g) => [
    g.getAttribute('data-step'),
    g.getAttribute('data-kind'),
    g.getAttribute('data-value'),
  ]);
  expect(steps).toEqual([
    ['previous', 'total', '100000000'],
    ['started', 'up', '40000000'],
    ['ended', 'down', '-12000000'],
    ['price', 'up', '2500000'],
    ['idle_share', 'up', '0'],
    ['current', 'total', '130500000'],
  ]);
  expect(chart).toHaveTextContent('Workloads that started');
  expect(chart).toHaveTextContent('−EUR 12.00');
  // Each bar starts where the one before it ended: ended goes down from 140 to 128.
  const bar = (name: string) => chart.querySelector(`g[data-step="${name}"] rect`) as SVGRectElement;
  const right = (name: string) => Number(bar(name).getAttribute('x')) + Number(bar(name).getAttribute('width'));
  expect(right('ended')).toBeCloseTo(right('started'));
  expect(Number(bar('ended').getAttribute('x'))).toBeCloseTo(240 + (128 / 140) * 340);
  // The axis ends at the highest running total (140); the current total is 130.5 of it.
  expect(Number(bar('current').getAttribute('width'))).toBeCloseTo((130.5 / 140) * 340);

  const table = screen.getByTestId('insights-drivers-table');
  expect(within(table).getByRole('rowheader', { name: 'Price changes' })).toBeInTheDocument();
  expect(screen.getByTestId('insights-driver-ended')).toHaveTextContent('−EUR 12.00');
  expect(screen.getByTestId('insights-driver-started-top-0')).toHaveAttribute('data-value', '30000000');
  expect(within(table).getByRole('row', { name: /Workloads that started/ })).toHaveTextContent('train-b');
  expect(within(table).getByRole('row', { name: /Price changes/ })).toHaveTextContent('none');
  // Contributions of no workload say what they are.
  const idle = within(table).getByRole('row', { name: /Idle share received/ });
  expect(idle).toHaveTextContent('idle capacity on A100: +EUR 1.00');
  expect(idle).toHaveTextContent('team ml (not a workload): −EUR 1.00');
  expect(paramsOf('/v1/insights/changes')).toEqual([{ ...testRange, top: '5' }]);
});

test('drivers that do not add up to the change are said, not hidden', async () => {
  server.use(http.get('*/v1/insights/changes', () => HttpResponse.json({ ...spendChangeReport, changeMicro: '30500001' })));
  renderApp(`/insights?${testRangeQuery}`, plannerToken);
  expect(await screen.findByTestId('insights-change-mismatch')).toHaveTextContent('+EUR 0.00 is not explained');
});

test('budgets: amount, spent, projected, a bar with the amount marked and the status in words', async () => {
  renderApp(`/insights?${testRangeQuery}`, plannerToken);
  expect(await screen.findByTestId('insights-budget-amount-ml')).toHaveTextContent('EUR 1,000.00');
  expect(screen.getByTestId('insights-budget-spent-ml')).toHaveAttribute('data-value', '600000000');
  expect(screen.getByTestId('insights-budget-projected-ml')).toHaveTextContent('EUR 1,100.00');
  expect(screen.getByTestId('insights-budget-status-ml')).toHaveTextContent('Projected over budget');
  expect(screen.getByTestId('insights-budget-status-ml-serving')).toHaveTextContent('Under budget');
  expect(screen.getByTestId('insights-budget-status-web')).toHaveTextContent('Over budget');
  expect(screen.getByTestId('insights-budget-status-web')).toHaveClass('status-over');
  // How each budget's rest of the month was forecast, on its own row.
  const mlRow = screen.getByTestId('insights-budget-status-ml').closest('tr') as HTMLElement;
  expect(mlRow).toHaveTextContent('the last 7 days’ mean per day');
  // The scale ends at the projection (1,100): the amount's mark sits at 1000/1100 of the bar.
  const bar = screen.getByTestId('insights-budget-bar-ml');
  expect(bar).toHaveAccessibleName('Spent EUR 600.00 and projected EUR 1,100.00 of a budget of EUR 1,000.00');
  expect(Number(bar.querySelector('[data-mark="amount"]')?.getAttribute('x1'))).toBeCloseTo((1000 / 1100) * 208);
  expect(budgetReport.budgets).toHaveLength(3);
  expect(paramsOf('/v1/insights/budgets')).toEqual([{}]);
});

test('one section failing leaves the others on screen, each failure in words', async () => {
  server.use(
    http.get('*/v1/insights/waste', () => refuse(501, 12, 'UNIMPLEMENTED', 'GetWaste is not implemented')),
    http.get('*/v1/insights/changes', () => refuse(500, 13, 'INTERNAL', 'the store failed')),
  );
  renderApp(`/insights?${testRangeQuery}`, plannerToken);
  expect(await screen.findByTestId('insights-savings-total')).toBeInTheDocument();
  expect(await screen.findByTestId('insights-budget-amount-ml')).toBeInTheDocument();
  const errors = await screen.findAllByTestId('error-message');
  expect(errors.map((e) => e.textContent)).toEqual([
    expect.stringMatching(/Could not load the waste\. This fleetcap service does not offer it yet.*GetWaste is not implemented/),
    expect.stringMatching(/Could not load the change of spend\. The fleetcap service failed: .*the store failed/),
  ]);
  expect(screen.queryByTestId('insights-waste-cost')).toBeNull();
});

test('sections with nothing to show say so', async () => {
  server.use(
    http.get('*/v1/insights/waste', () => HttpResponse.json({ currency: 'EUR' })),
    http.get('*/v1/insights/rightsizing', () => HttpResponse.json({ currency: 'EUR' })),
    http.get('*/v1/insights/changes', () => HttpResponse.json({ currency: 'EUR' })),
    http.get('*/v1/insights/budgets', () => HttpResponse.json({ currency: 'EUR' })),
  );
  renderApp(`/insights?${testRangeQuery}`, plannerToken);
  expect(await screen.findByTestId('insights-waste-empty')).toHaveTextContent('No workload held devices idle');
  expect(screen.getByTestId('insights-efficiency')).toHaveTextContent('not reported');
  expect(await screen.findByTestId('insights-savings-empty')).toBeInTheDocument();
  expect(await screen.findByTestId('insights-change-empty')).toBeInTheDocument();
  expect(await screen.findByTestId('insights-budgets-empty')).toBeInTheDocument();
});

test('the team and the range are in the URL: chosen, asked for and read back', async () => {
  const { router } = renderApp(`/insights?${testRangeQuery}`, plannerToken);
  const search = () => new URLSearchParams(router.state.location.search);
  const picker = await screen.findByTestId('insights-team');
  await waitFor(() => expect(within(picker).getByRole('option', { name: 'ml' })).toBeInTheDocument());
  await userEvent.selectOptions(picker, 'ml');
  await waitFor(() => expect(search().get('team')).toBe('ml'));
  expect(search().get('start')).toBe(testRange.start);
  await waitFor(() => expect(paramsOf('/v1/insights/waste')).toContainEqual({ ...testRange, team: 'ml', limit: '20' }));
  expect(paramsOf('/v1/insights/rightsizing')).toContainEqual({ team: 'ml', limit: '20' });
  expect(paramsOf('/v1/insights/changes')).toContainEqual({ ...testRange, team: 'ml', top: '5' });
  await waitFor(() => expect(paramsOf('/v1/insights/budgets')).toContainEqual({ team: 'ml' }));
  // The team's score, not the fleet's.
  await waitFor(() => expect(screen.getByTestId('insights-efficiency')).toHaveTextContent('37.5%'));
  expect(screen.getByText('Efficiency of team ml')).toBeInTheDocument();

  await userEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
  await waitFor(() => expect(search().get('range')).toBe('30d'));
  expect(search().get('team')).toBe('ml');
  await waitFor(() => expect(paramsOf('/v1/insights/waste').at(-1)?.start).not.toBe(testRange.start));
  expect(paramsOf('/v1/insights/waste').at(-1)?.team).toBe('ml');
  expect(paramsOf('/v1/insights/changes').at(-1)).toEqual({ ...paramsOf('/v1/insights/waste').at(-1), top: '5', limit: undefined });
});

test('a URL naming a team opens the page on that team', async () => {
  renderApp(`/insights?${testRangeQuery}&team=ml`, plannerToken);
  expect(await screen.findByTestId('insights-team')).toHaveValue('ml');
  await waitFor(() => expect(paramsOf('/v1/insights/budgets')).toEqual([{ team: 'ml' }]));
  expect(paramsOf('/v1/insights/waste')).toEqual([{ ...testRange, team: 'ml', limit: '20' }]);
});

test('a team token sees its own team, never the fleet: every call names a team of its subtree', async () => {
  renderApp(`/insights?${testRangeQuery}`, teamToken);
  expect(await screen.findByTestId('insights-waste-cost')).toBeInTheDocument();
  const picker = screen.getByTestId('insights-team');
  expect(picker).toHaveValue('ml');
  expect(within(picker).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['ml', 'ml-research', 'ml-serving']);
  expect(screen.queryByText('the whole fleet')).toBeNull();
  expect(screen.getByText('Efficiency of team ml')).toBeInTheDocument();
  expect(screen.getByTestId('insights-efficiency')).toHaveTextContent('37.5%');
  await screen.findByTestId('insights-budget-amount-ml');
  expect(screen.queryByTestId('insights-budget-amount-web')).toBeNull();
  await screen.findByTestId('insights-savings-total');
  await screen.findByTestId('insights-change-total');
  expect(screen.queryByTestId('error-message')).toBeNull();
  expect(insightsCalls().map((u) => u.searchParams.get('team'))).toEqual(['ml', 'ml', 'ml', 'ml']);
  // Nor the policy (a planner's call) for the team names.
  expect(recorded('/v1/policy')).toHaveLength(0);
});

test('a team token on a sub-team in the URL asks for that sub-team', async () => {
  renderApp(`/insights?${testRangeQuery}&team=ml-serving`, teamToken);
  await screen.findByTestId('insights-waste-cost');
  await screen.findByTestId('insights-budget-amount-ml-serving');
  expect(new Set(insightsCalls().map((u) => u.searchParams.get('team')))).toEqual(new Set(['ml-serving']));
});

test('a team token on a team outside its subtree in the URL is told so and asks for nothing', async () => {
  renderApp(`/insights?${testRangeQuery}&team=web`, teamToken);
  expect(await screen.findByTestId('outside-scope')).toHaveTextContent('the team in the address (web) is not one of them');
  expect(screen.queryByTestId('insights-team')).toBeNull();
  expect(insightsCalls()).toHaveLength(0);
});

test('the navigation offers Insights, keeping the range', async () => {
  renderApp(`/fleet?range=30d`, plannerToken);
  const link = await screen.findByRole('link', { name: 'Insights' });
  expect(link).toHaveAttribute('href', '/insights?range=30d');
});
