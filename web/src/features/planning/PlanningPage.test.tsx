import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { forecastFor, planningPolicyDocument, plannerToken, teamToken } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { recorded, server } from '../../test/server';

// The planner's pickers read the flavors and teams from the active policy.
function withPlanningPolicy() {
  server.use(http.get('*/v1/policy', () => HttpResponse.json({ version: 2, document: planningPolicyDocument })));
}

const series = (testId: string) => JSON.parse(screen.getByTestId(testId).getAttribute('data-series') ?? '[]');

test("a flavor's forecast: history, the p50 line and p90 band against capacity, exhaustion and the model", async () => {
  withPlanningPolicy();
  renderApp('/planning', plannerToken);
  expect(await screen.findByRole('heading', { level: 1, name: 'Planning' })).toBeInTheDocument();
  const chart = await screen.findByTestId('planning-forecast-chart');
  expect(chart).toHaveAttribute('data-ready', 'true');
  // history 4 days; the band as its base and width; p50 and p90; capacity over history and horizon.
  expect(series('planning-forecast-chart')).toEqual([
    ['held (history)', 4],
    ['band-base', 5],
    ['band-width', 5],
    ['p50 forecast', 5],
    ['p90 forecast', 5],
    ['capacity', 9],
  ]);
  expect(screen.getByTestId('forecast-history-last')).toHaveAttribute('data-value', '23000');
  expect(screen.getByTestId('forecast-p50-end')).toHaveTextContent('34 devices');
  expect(screen.getByTestId('forecast-p90-end')).toHaveAttribute('data-value', '38000');
  expect(screen.getByTestId('forecast-capacity-end')).toHaveTextContent('32 devices');
  expect(screen.getByTestId('forecast-exhaustion-p50')).toHaveTextContent('2026-12-09');
  expect(screen.getByTestId('forecast-exhaustion-p50')).toHaveAttribute('data-value', '2026-12-09T00:00:00Z');
  expect(screen.getByTestId('forecast-exhaustion-p90')).toHaveTextContent('2026-12-08');
  expect(screen.getByTestId('forecast-model')).toHaveTextContent('holt_winters_weekly');
  expect(screen.queryByTestId('forecast-fallback')).toBeNull();
  // The first flavor of the policy, its total, 90 days ahead.
  expect(recorded('/v1/forecast').map((u) => Object.fromEntries(u.searchParams))).toContainEqual({
    flavor: 'h100',
    horizon: '90d',
    what: 'held',
  });
});

test('a capacity that would flatten the forecast is left out until asked for, and the choice is kept in the URL', async () => {
  withPlanningPolicy();
  // 4,000 devices of capacity against a demand of at most 38.
  const total = forecastFor('h100', null);
  const huge = (points: typeof total.capacityHistory) => points?.map((p) => ({ ...p, milli: '4000000' }));
  server.use(
    http.get('*/v1/forecast', () =>
      HttpResponse.json({ ...total, capacityHistory: huge(total.capacityHistory), capacityForecast: huge(total.capacityForecast) }),
    ),
  );
  const { router } = renderApp('/planning', plannerToken);
  await screen.findByTestId('planning-forecast-chart');
  const names = () => series('planning-forecast-chart').map(([name]: [string]) => name);
  const toggle = screen.getByTestId('forecast-show-capacity');
  expect(toggle).not.toBeChecked();
  expect(names()).not.toContain('capacity');
  expect(screen.getByTestId('forecast-capacity-hidden')).toHaveTextContent('Capacity (4,000 devices) is left out');
  // The figure is still on the page.
  expect(screen.getByTestId('forecast-capacity-end')).toHaveAttribute('data-value', '4000000');

  await userEvent.click(toggle);
  await waitFor(() => expect(router.state.location.search).toBe('?capacity=show'));
  await waitFor(() => expect(names()).toContain('capacity'));
  expect(screen.getByTestId('forecast-show-capacity')).toBeChecked();
  await userEvent.click(screen.getByTestId('forecast-show-capacity'));
  await waitFor(() => expect(router.state.location.search).toBe('?capacity=hide'));
  await waitFor(() => expect(names()).not.toContain('capacity'));
});

test('a capacity near the demand is shown, and can be hidden', async () => {
  withPlanningPolicy();
  renderApp('/planning?capacity=hide', plannerToken);
  await screen.findByTestId('planning-forecast-chart');
  expect(series('planning-forecast-chart').map(([name]: [string]) => name)).not.toContain('capacity');
  expect(screen.getByTestId('forecast-show-capacity')).not.toBeChecked();
  // Hidden by choice, not because it would flatten anything: no note.
  expect(screen.queryByTestId('forecast-capacity-hidden')).toBeNull();
});

test('exhaustion per flavor: a day, or why there is none', async () => {
  withPlanningPolicy();
  renderApp('/planning', plannerToken);
  const table = await screen.findByTestId('planning-exhaustion-table');
  expect(await within(table).findByTestId('planning-exhaustion-p50-h100')).toHaveTextContent('2026-12-09');
  expect(within(table).getByTestId('planning-exhaustion-p90-h100')).toHaveTextContent('2026-12-08');
  expect(await within(table).findByText('no stored forecast')).toBeInTheDocument();
});

test("a team's series names its fallback model; the pickers and horizon are kept in the URL", async () => {
  withPlanningPolicy();
  const { router } = renderApp('/planning', plannerToken);
  await screen.findByTestId('planning-forecast-chart');
  await userEvent.selectOptions(screen.getByLabelText('Team'), 'ml');
  // The page shows the new team before the next choice (navigations render as transitions).
  await waitFor(() => expect(screen.getByLabelText('Team')).toHaveValue('ml'));
  await userEvent.click(screen.getByRole('button', { name: '30d' }));
  await waitFor(() => expect(router.state.location.search).toBe('?team=ml&horizon=30d'));
  await waitFor(() =>
    expect(recorded('/v1/forecast').map((u) => Object.fromEntries(u.searchParams))).toContainEqual({
      flavor: 'h100',
      horizon: '30d',
      what: 'held',
      team: 'ml',
    }),
  );
  expect(await screen.findByTestId('forecast-fallback')).toHaveTextContent('fewer than 336 hours of history');
  expect(screen.getByTestId('forecast-model')).toHaveTextContent('holt_linear');
});

test('a bad horizon in the URL falls back to 90 days and says why', async () => {
  withPlanningPolicy();
  renderApp('/planning?horizon=2y', plannerToken);
  expect(await screen.findByTestId('planning-url-problem')).toHaveTextContent('horizon: "2y" is not one of');
  expect(await screen.findByRole('button', { name: '90d' })).toHaveAttribute('aria-pressed', 'true');
});

test('no forecast stored for a flavor is said in words, not as an empty chart', async () => {
  withPlanningPolicy();
  renderApp('/planning?flavor=t4', plannerToken);
  expect(await screen.findByTestId('forecast-missing')).toHaveTextContent('No stored forecast for this series');
  expect(screen.queryByTestId('planning-forecast-chart')).toBeNull();
});

test('a scenario run shows the baseline beside the scenario, money exact', async () => {
  withPlanningPolicy();
  renderApp('/planning', plannerToken);
  const editor = (await screen.findByTestId('scenario-yaml')) as HTMLTextAreaElement;
  // The documented example is there to start from.
  expect(editor.value).toContain('flavor: openb-g2');
  await userEvent.click(screen.getByRole('button', { name: 'Run against the baseline' }));
  const comparison = await screen.findByTestId('scenario-comparison');
  expect(within(comparison).getByTestId('scenario-bill-baseline-ml')).toHaveTextContent('USD 9,007,199,254.74');
  expect(within(comparison).getByTestId('scenario-bill-scenario-ml')).toHaveAttribute('data-value', '18014398509481986');
  expect(within(comparison).getByTestId('scenario-total-baseline')).toHaveAttribute('data-value', '9007199256490993');
  expect(within(comparison).getByTestId('scenario-total-scenario')).toHaveTextContent('USD 18,014,398,510.73');
  expect(within(comparison).getByTestId('scenario-idle-scenario')).toHaveTextContent('USD 0.00');
  expect(within(comparison).getByTestId('scenario-utilisation-baseline-h100')).toHaveTextContent('64.1%');
  expect(within(comparison).getByTestId('scenario-utilisation-scenario-h100')).toHaveTextContent('100.0%');
  expect(within(comparison).getByTestId('scenario-exhaustion-p50-scenario-h100')).toHaveTextContent('2026-12-20');
  expect(within(comparison).getByTestId('scenario-exhaustion-p90-baseline-h100')).toHaveTextContent('not within the horizon');
  expect(within(comparison).getByTestId('scenario-rec-baseline-ml/h100')).toHaveTextContent('20.5');
  expect(within(comparison).getByTestId('scenario-rec-scenario-ml/h100')).toHaveTextContent('28');
  expect(within(screen.getByTestId('scenario-recommendations')).getByRole('row', { name: /ml\/h100/ })).toHaveTextContent('+7.5');
  expect(screen.getByTestId('scenario-models')).toHaveTextContent('recent_average 1');
  // A bill or utilisation no stored forecast covers says so, never a figure.
  expect(within(comparison).getByTestId('scenario-bill-scenario-web')).toHaveTextContent('unknown');
  expect(within(comparison).getByTestId('scenario-bill-baseline-web')).toHaveTextContent('USD 1.25');
  expect(within(comparison).getByTestId('scenario-utilisation-scenario-t4')).toHaveTextContent('unknown');
});

test('a refused scenario lists every problem with its line, and a line can be selected in the editor', async () => {
  withPlanningPolicy();
  renderApp('/planning', plannerToken);
  const editor = (await screen.findByTestId('scenario-yaml')) as HTMLTextAreaElement;
  await userEvent.clear(editor);
  await userEvent.type(editor, 'version: 1{enter}capacity:{enter}  - flavor: h100{enter}    add: 1{enter}    from: 2027-01-01T00:00:00Z{enter}    pool: x');
  await userEvent.click(screen.getByRole('button', { name: 'Run against the baseline' }));
  const problems = await screen.findAllByTestId('scenario-problem');
  expect(problems.map((p) => p.getAttribute('data-line'))).toEqual(['6', '3']);
  expect(problems[0]).toHaveTextContent('Line 6, column 5: capacity[0].pool: unknown key "pool"');
  expect(problems[1]).toHaveTextContent('Line 3: demand[0].team: unknown team "ghost"');
  await userEvent.click(within(problems[0] as HTMLElement).getByRole('button', { name: 'Line 6, column 5' }));
  expect(editor.value.slice(editor.selectionStart, editor.selectionEnd)).toBe('    pool: x');
  expect(screen.queryByTestId('scenario-comparison')).toBeNull();
});

test('a scenario saved with a name is listed, and a saved one opens from the list', async () => {
  withPlanningPolicy();
  const { router } = renderApp('/planning', plannerToken);
  await screen.findByTestId('saved-scenarios');
  await userEvent.type(screen.getByLabelText('Name'), 'retire G2s in February');
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(await screen.findByTestId('scenario-saved')).toHaveTextContent('Saved as scenario 10.');
  await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('scenario')).toBe('10'));
  const saved = recorded('/v1/scenarios').filter((u) => u.search === '');
  expect(saved.length).toBeGreaterThanOrEqual(2); // listed before and after the save
  expect(await screen.findByTestId('saved-scenario-10')).toHaveTextContent('retire G2s in February');
  expect(screen.getByTestId('scenario-shown')).toHaveTextContent('saved scenario 10');
  expect(screen.getByTestId('scenario-total-scenario')).toHaveAttribute('data-value', '18014398510731986');

  // One click event: the list is drawn again as the saved scenario's answers
  // settle, and a pointer sequence spread over several ticks can end on the
  // link it replaced.
  fireEvent.click(screen.getByTestId('saved-scenario-3'));
  await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('scenario')).toBe('3'));
  await waitFor(() => expect((screen.getByTestId('scenario-yaml') as HTMLTextAreaElement).value).toBe('version: 1\ndescription: retire G2s\n'));
  expect(screen.getByTestId('scenario-shown')).toHaveTextContent('saved scenario 3 “retire G2s”');
  expect(recorded('/v1/scenarios/get').map((u) => u.searchParams.get('id'))).toEqual(['3']);
});

test('a team token sees its own forecast, is told what it does not see, and asks for no scenario', async () => {
  renderApp('/planning', teamToken);
  expect(await screen.findByTestId('planning-scope')).toHaveTextContent('team ml and its sub-teams only');
  expect(await screen.findByTestId('planning-forecast-chart')).toBeInTheDocument();
  expect(screen.getByTestId('forecast-team-note')).toBeInTheDocument();
  expect(screen.queryByTestId('forecast-exhaustion-p50')).toBeNull();
  expect(screen.queryByTestId('planning-exhaustion-table')).toBeNull();
  expect(screen.queryByTestId('scenario-yaml')).toBeNull();
  expect(recorded('/v1/forecast').map((u) => u.searchParams.get('team'))).toEqual(['ml']);
  expect(recorded('/v1/scenarios')).toHaveLength(0);
  expect(recorded('/v1/policy')).toHaveLength(0);
  // Only its own subtree to pick from, no flavor total.
  const teams = within(screen.getByLabelText('Team')).getAllByRole('option').map((o) => o.textContent);
  expect(teams).toEqual(['ml', 'ml-research', 'ml-serving']);
});

test("another team in the URL is refused on the page, without a request naming it", async () => {
  renderApp('/planning?flavor=h100&team=web', teamToken);
  expect(await screen.findByTestId('outside-scope')).toHaveTextContent('the team in the address is not one of them');
  expect(screen.queryByTestId('planning-forecast-chart')).toBeNull();
  expect(recorded('/v1/forecast').filter((u) => u.searchParams.get('team') === 'web')).toHaveLength(0);
});

test('a 403 from the API is a sentence a person understands', async () => {
  server.use(
    http.get('*/v1/forecast', () =>
      HttpResponse.json({ code: 7, status: 'PERMISSION_DENIED', message: 'team ml-serving: not readable' }, { status: 403 }),
    ),
  );
  renderApp('/planning?flavor=h100&team=ml-serving', teamToken);
  const message = await screen.findByTestId('error-message');
  expect(message).toHaveTextContent('Could not load the forecast.');
  expect(message).toHaveTextContent('Your token may not see this.');
  expect(screen.queryByTestId('planning-forecast-chart')).toBeNull();
});
