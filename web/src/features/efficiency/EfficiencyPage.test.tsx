import { screen, within } from '@testing-library/react';
import { plannerToken, testRange, testRangeQuery } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { http, HttpResponse } from 'msw';
import { recorded, server } from '../../test/server';

test('idle waste by team in money, exact', async () => {
  renderApp(`/efficiency?${testRangeQuery}`, plannerToken);
  expect(await screen.findByRole('heading', { level: 1, name: 'Efficiency' })).toBeInTheDocument();
  // ml used half of what it held: half its direct cost, rounded down to the micro-unit.
  const unused = await screen.findByTestId('efficiency-unused-ml');
  expect(unused).toHaveAttribute('data-value', '4503599627370496');
  expect(unused).toHaveTextContent('USD 4,503,599,627.37');
  expect(screen.getByTestId('efficiency-idle-ml')).toHaveTextContent('USD 1.00');
  expect(screen.getByTestId('efficiency-unused-web')).toHaveTextContent('USD 0.00');
  // One title (the section's heading), and the chart has a legend of its bars.
  expect(screen.getAllByText('Idle waste by team')).toHaveLength(1);
  expect(JSON.parse((await screen.findByTestId('efficiency-chart')).getAttribute('data-legend')!)).toBe(true);
  expect(JSON.parse((await screen.findByTestId('efficiency-chart')).getAttribute('data-series')!)).toEqual([
    ['held but unused', 2],
    ['idle received', 2],
    ['no telemetry (use unknown)', 2],
  ]);
});

test('held time without telemetry is unknown, never unused', async () => {
  // ml held 200 device-hours, 50 of them with readings, and used 20: 30 unused, 150 unknown.
  server.use(
    http.get('*/v1/chargeback', () =>
      HttpResponse.json({
        currency: 'USD',
        totalCostMicro: '200000000',
        lines: [
          {
            start: '2026-11-27T19:00:00Z',
            team: 'ml',
            namespace: 'ml-train',
            workload: 'trainer',
            heldMilliSeconds: '720000000',
            observedMilliSeconds: '180000000',
            usedMilliSeconds: '72000000',
            directCostMicro: '200000000',
            totalCostMicro: '200000000',
            noTelemetry: true,
          },
        ],
      }),
    ),
  );
  renderApp(`/efficiency?${testRangeQuery}`, plannerToken);
  const unused = await screen.findByTestId('efficiency-unused-ml');
  expect(unused).toHaveAttribute('data-value', '30000000'); // 30 of 200 device-hours of USD 200
  expect(screen.getByTestId('efficiency-unknown-ml')).toHaveAttribute('data-value', '150000000');
  const teams = screen.getByTestId('efficiency-teams');
  expect(within(teams).getByText(/40\.0% \*/)).toBeInTheDocument(); // 20 used of 50 observed, marked
  const workloads = await screen.findByTestId('efficiency-workloads');
  expect(within(workloads).getByTestId('efficiency-workload-unused-ml/ml-train/trainer')).toHaveTextContent('30');
});

test('the least efficient workloads come first and link to their chargeback line and explanation', async () => {
  renderApp(`/efficiency?${testRangeQuery}`, plannerToken);
  const table = await screen.findByTestId('efficiency-workloads');
  const rows = within(table).getAllByRole('row').slice(1);
  expect(rows[0]).toHaveTextContent(/^trainer namespace ml-train · team ml/);
  expect(rows[1]).toHaveTextContent(/^notebook namespace ml-train · team ml/);
  expect(within(table).getByTestId('efficiency-workload-unused-ml/ml-train/trainer')).toHaveTextContent('1.8');
  const line = within(rows[0]!).getByRole('link', { name: 'trainer' });
  expect(line).toHaveAttribute('href', `/chargeback?${testRangeQuery}&team=ml&namespace=ml-train&q=trainer`);
  expect(within(rows[0]!).getByRole('link', { name: 'Explain' })).toHaveAttribute(
    'href',
    `/chargeback?${testRangeQuery}&team=ml&namespace=ml-train&explain=trainer&q=trainer`,
  );
  const calls = recorded('/v1/chargeback').map((u) => Object.fromEntries(u.searchParams));
  expect(calls).toContainEqual({ ...testRange, group_by: 'team,namespace,workload', resolution: 'none', line_kind: 'workload' });
});

test('a workload reads as its name, with its kind and namespace once as secondary text', async () => {
  server.use(
    http.get('*/v1/chargeback', () =>
      HttpResponse.json({
        currency: 'USD',
        lines: [
          {
            team: 'team-11',
            namespace: 'team-11',
            workload: 'Pod/openb-pod-4895',
            heldMilliSeconds: '7200000',
            observedMilliSeconds: '7200000',
            usedMilliSeconds: '720000',
          },
        ],
      }),
    ),
  );
  renderApp(`/efficiency?${testRangeQuery}`, plannerToken);
  const table = await screen.findByTestId('efficiency-workloads');
  const row = within(table).getAllByRole('row')[1]!;
  expect(within(row).getByRole('link', { name: 'openb-pod-4895' })).toBeInTheDocument();
  expect(within(row).getAllByRole('cell')[0]).toHaveTextContent(/^openb-pod-4895 Pod · namespace team-11$/);
  expect(row.textContent).not.toContain('team-11/');
  expect(within(row).getByTitle('team-11 / team-11 / Pod/openb-pod-4895')).toBeInTheDocument();
});
