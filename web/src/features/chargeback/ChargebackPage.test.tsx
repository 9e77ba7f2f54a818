import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { delay, http, HttpResponse } from 'msw';
import { plannerToken, teamToken, testRange, testRangeQuery, whoTeam } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { recorded, server } from '../../test/server';
import * as download from '../../components/download';

test('cost by team: exact totals, device-hours, efficiency, idle share and the previous period', async () => {
  renderApp(`/chargeback?${testRangeQuery}`, plannerToken);
  expect(await screen.findByRole('heading', { level: 1, name: 'Chargeback' })).toBeInTheDocument();
  // Beyond 2^53 micro-units: summed and printed without floats.
  expect(await screen.findByTestId('chargeback-total')).toHaveTextContent('USD 9,007,199,258.24');
  expect(screen.getByTestId('chargeback-total')).toHaveAttribute('data-value', '9007199258240993');
  expect(screen.getByTestId('chargeback-previous-total')).toHaveTextContent('USD 5.00');
  expect(screen.getByTestId('chargeback-row-total-ml')).toHaveTextContent('USD 9,007,199,255.74');
  expect(screen.getByTestId('chargeback-row-held-ml')).toHaveTextContent('200.0');
  expect(screen.getByTestId('chargeback-row-used-ml')).toHaveTextContent('100.0');
  const table = screen.getByTestId('chargeback-table');
  const web = within(table).getByRole('row', { name: /web/ });
  expect(web).toHaveTextContent('100.0%'); // efficiency
  expect(web).toHaveTextContent('-50.0%'); // 2.50 against 5.00 before
  expect(within(table).getByRole('row', { name: /^ml/ })).toHaveTextContent('new');

  const calls = recorded('/v1/chargeback').map((u) => Object.fromEntries(u.searchParams));
  expect(calls).toContainEqual({ ...testRange, group_by: 'team', resolution: 'none' });
  expect(calls).toContainEqual({ start: '2026-11-20T19:00:00Z', end: testRange.start, group_by: 'team', resolution: 'none' });
});

test('the table sorts by a column and searches, both in the URL, and a drill starts without them', async () => {
  const { router } = renderApp(`/chargeback?${testRangeQuery}`, plannerToken);
  const table = await screen.findByTestId('chargeback-table');
  await screen.findByTestId('chargeback-row-total-ml');
  const names = () => within(table).getAllByRole('row').slice(1).map((row) => row.querySelector('td')?.textContent);
  const search = () => new URLSearchParams(router.state.location.search);
  // The cost column: largest first on the first click, smallest first on the next.
  const cost = within(table).getByRole('columnheader', { name: /Cost/ });
  expect(cost).toHaveAttribute('aria-sort', 'none');
  await userEvent.click(within(cost).getByRole('button'));
  await waitFor(() => expect(search().get('sort')).toBe('total:desc'));
  expect(cost).toHaveAttribute('aria-sort', 'descending');
  expect(names()[0]).toBe('ml');
  await userEvent.click(within(cost).getByRole('button'));
  await waitFor(() => expect(search().get('sort')).toBe('total:asc'));
  expect(names()[0]).toBe('web');
  // By change: ml is new in this period (grew the most), web fell by half.
  const growth = within(table).getByRole('columnheader', { name: /Change/ });
  await userEvent.click(within(growth).getByRole('button'));
  await waitFor(() => expect(search().get('sort')).toBe('change:desc'));
  expect(names()[0]).toBe('ml');
  expect(names().at(-1)).toBe('web');
  await userEvent.type(screen.getByRole('searchbox', { name: 'Search cost by team' }), 'WE');
  await waitFor(() => expect(search().get('q')).toBe('WE'));
  expect(within(table).queryByTestId('chargeback-row-total-ml')).toBeNull();
  expect(within(table).getByTestId('chargeback-row-total-web')).toBeInTheDocument();
  // The total is every line's, whatever the table shows.
  expect(screen.getByTestId('chargeback-total')).toHaveAttribute('data-value', '9007199258240993');
  await userEvent.clear(screen.getByRole('searchbox', { name: 'Search cost by team' }));
  await userEvent.click(await within(table).findByRole('button', { name: 'ml' }));
  await waitFor(() => expect(search().get('team')).toBe('ml'));
  expect(search().get('sort')).toBeNull();
  expect(search().get('q')).toBeNull();
});

test('the table grouped by model: one call per period with that group_by, its rows and total the API\'s, in the URL', async () => {
  const { router } = renderApp(`/chargeback?${testRangeQuery}&cluster=east&sort=total:asc`, plannerToken);
  await screen.findByTestId('chargeback-row-total-ml');
  await userEvent.selectOptions(screen.getByTestId('table-group-by'), 'model');
  const search = () => new URLSearchParams(router.state.location.search);
  await waitFor(() => expect(search().get('table')).toBe('model'));
  // A new grouping starts the table's view afresh; the filters stay.
  expect(search().get('sort')).toBeNull();
  expect(search().get('cluster')).toBe('east');
  const table = screen.getByTestId('chargeback-table');
  expect(await within(table).findByTestId('chargeback-row-total-H100-SXM5-80GB')).toHaveAttribute('data-value', '9007199255740993');
  expect(within(table).getByTestId('chargeback-row-total-T4')).toHaveTextContent('USD 2.00');
  expect(within(table).getByTestId('chargeback-row-total-A100-80GB')).toHaveTextContent('USD 0.50');
  expect(within(table).getByRole('columnheader', { name: /Model/ })).toBeInTheDocument();
  // T4 had 5.00 in the previous period; the others are new.
  expect(within(table).getByRole('row', { name: /^T4/ })).toHaveTextContent('-60.0%');
  expect(within(table).getByRole('row', { name: /^H100/ })).toHaveTextContent('new');
  // Grouped by a field, a row is a sum across teams: no drill from it.
  expect(within(table).queryByRole('button', { name: 'T4' })).toBeNull();
  expect(screen.getByTestId('chargeback-total')).toHaveAttribute('data-value', '9007199258240993');
  const calls = recorded('/v1/chargeback').map((u) => Object.fromEntries(u.searchParams));
  expect(calls).toContainEqual({ ...testRange, group_by: 'model', resolution: 'none', cluster: 'east' });
  expect(calls).toContainEqual({ start: '2026-11-20T19:00:00Z', end: testRange.start, group_by: 'model', resolution: 'none', cluster: 'east' });
  // The search names models now.
  await userEvent.type(screen.getByRole('searchbox', { name: 'Search cost by model' }), 't4');
  await waitFor(() => expect(within(table).queryByTestId('chargeback-row-total-H100-SXM5-80GB')).toBeNull());
  expect(within(table).getByTestId('chargeback-row-total-T4')).toBeInTheDocument();
});

test('a grouping in the URL is read on a fresh load, and the exports are of the table at that grouping', async () => {
  const saved = vi.spyOn(download, 'downloadText').mockImplementation(() => undefined);
  renderApp(`/chargeback?${testRangeQuery}&table=model`, plannerToken);
  expect(await screen.findByTestId('chargeback-row-total-T4')).toBeInTheDocument();
  expect(screen.getByTestId('table-group-by')).toHaveValue('model');
  await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
  await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
  const exports = recorded('/v1/chargeback/export').map((u) => Object.fromEntries(u.searchParams));
  expect(exports).toEqual([{ format: 'csv', ...testRange, group_by: 'model', resolution: 'none' }]);
  expect(saved.mock.calls[0]![0]).toBe('chargeback-csv-by-model-2026-11-27.csv');
  saved.mockRestore();
});

test('a grouping that is no field of the API follows the drill and is not sent', async () => {
  renderApp(`/chargeback?${testRangeQuery}&table=team,namespace`, plannerToken);
  expect(await screen.findByTestId('chargeback-row-total-ml')).toBeInTheDocument();
  expect(screen.getByTestId('table-group-by')).toHaveValue('');
  expect(recorded('/v1/chargeback').map((u) => u.searchParams.get('group_by'))).not.toContain('team,namespace');
});

test('a line kind filter goes into the URL and every chargeback call of the page, the table and the chart alike', async () => {
  const { router } = renderApp(`/chargeback?${testRangeQuery}`, plannerToken);
  await screen.findByTestId('chargeback-row-total-ml');
  await userEvent.selectOptions(screen.getByTestId('filter-line_kind'), 'idle');
  await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('line_kind')).toBe('idle'));
  await waitFor(() => {
    const calls = recorded('/v1/chargeback').map((u) => Object.fromEntries(u.searchParams));
    expect(calls).toContainEqual({ ...testRange, group_by: 'team', resolution: 'none', line_kind: 'idle' });
    expect(calls).toContainEqual({ ...testRange, group_by: 'team', resolution: 'day', line_kind: 'idle' });
  });
  // The choices are asked for without the filters, so that every one stays offered.
  const choices = recorded('/v1/chargeback').filter((u) => u.searchParams.get('group_by') === 'cluster,model');
  expect(choices.length).toBeGreaterThan(0);
  expect(choices.every((u) => !u.searchParams.has('line_kind'))).toBe(true);
});

test('drill-down team -> namespace -> workload adds a group_by field and a filter each time, in the URL', async () => {
  const { router } = renderApp(`/chargeback?${testRangeQuery}`, plannerToken);
  await userEvent.click(await screen.findByRole('button', { name: 'ml' }));
  await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('team')).toBe('ml'));
  await userEvent.click(await screen.findByRole('button', { name: 'ml-train' }));
  expect(await screen.findByTestId('chargeback-row-total-trainer')).toHaveTextContent('USD 2.00');
  const params = new URLSearchParams(router.state.location.search);
  expect(params.get('namespace')).toBe('ml-train');
  const calls = recorded('/v1/chargeback').map((u) => Object.fromEntries(u.searchParams));
  expect(calls).toContainEqual({ ...testRange, group_by: 'team,namespace', resolution: 'none', team: 'ml' });
  expect(calls).toContainEqual({
    ...testRange,
    group_by: 'team,namespace,workload',
    resolution: 'none',
    team: 'ml',
    namespace: 'ml-train',
  });
});

test('a workload explanation shows its lines in the newest hour it has', async () => {
  renderApp(`/chargeback?${testRangeQuery}&team=ml&namespace=ml-train&explain=trainer`, plannerToken);
  const panel = await screen.findByTestId('explain-panel');
  expect(await within(panel).findByTestId('explain-line-total')).toHaveTextContent('USD 1.00');
  // Only the workload's own line of the team's hour.
  expect(within(panel).getAllByTestId('explain-line-total')).toHaveLength(1);
  expect(within(panel).getByText(/every line matches the stored one/)).toBeInTheDocument();
  const explain = recorded('/v1/chargeback/explain').map((u) => Object.fromEntries(u.searchParams));
  expect(explain).toEqual([{ team: 'ml-research', hour: '2026-12-03T11:00:00Z' }]);
});

test('clicking Explain brings the explanation into view and puts focus on its heading', async () => {
  const scrolled = vi.spyOn(Element.prototype, 'scrollIntoView');
  renderApp(`/chargeback?${testRangeQuery}&team=ml&namespace=ml-train`, plannerToken);
  const table = await screen.findByTestId('chargeback-table');
  const trainer = within(table).getByRole('row', { name: /trainer/ });
  await userEvent.click(within(trainer).getByRole('button', { name: /Explain/ }));
  const heading = await screen.findByTestId('explain-heading');
  expect(heading).toHaveFocus();
  expect(scrolled.mock.contexts).toContain(heading);
  scrolled.mockRestore();
});

test('CSV and FOCUS exports ask for what is on screen', async () => {
  const saved = vi.spyOn(download, 'downloadText').mockImplementation(() => undefined);
  renderApp(`/chargeback?${testRangeQuery}&team=ml`, plannerToken);
  await screen.findByTestId('chargeback-table');
  await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
  await userEvent.click(screen.getByRole('button', { name: 'Export FOCUS' }));
  await waitFor(() => expect(saved).toHaveBeenCalledTimes(2));
  const exports = recorded('/v1/chargeback/export').map((u) => Object.fromEntries(u.searchParams));
  const onScreen = { ...testRange, group_by: 'team,namespace', resolution: 'none', team: 'ml' };
  expect(exports).toEqual([
    { format: 'csv', ...onScreen },
    { format: 'focus', ...onScreen },
  ]);
  expect(saved.mock.calls[0]![1]).toBe('csv-header\nrow');
  expect(saved.mock.calls[1]![0]).toMatch(/^chargeback-focus-ml-2026-11-27\.csv$/);
  saved.mockRestore();
});

test("a team token asking for another team by URL is told so, and nothing is requested", async () => {
  renderApp(`/chargeback?${testRangeQuery}&team=web`, teamToken);
  expect(await screen.findByTestId('outside-scope')).toHaveTextContent('Your token sees team ml and its sub-teams only');
  expect(screen.queryByTestId('chargeback-table')).toBeNull();
  expect(recorded('/v1/chargeback')).toHaveLength(0);
});

test("a team token's drill URL into another team's workload asks for neither its lines nor its explanation", async () => {
  // The page is drawn before the token's scope arrives: it must wait for it.
  server.use(
    http.get('*/v1/tokens/self', async () => {
      await delay(500);
      return HttpResponse.json(whoTeam);
    }),
  );
  renderApp(`/chargeback?${testRangeQuery}&team=web&namespace=web-prod&explain=frontend`, teamToken);
  expect(await screen.findByTestId('outside-scope')).toBeInTheDocument();
  expect(screen.queryByTestId('explain-panel')).toBeNull();
  expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  const asked = [...recorded('/v1/chargeback'), ...recorded('/v1/chargeback/explain'), ...recorded('/v1/chargeback/export')];
  expect(asked.filter((url) => url.searchParams.get('team') === 'web')).toEqual([]);
});
