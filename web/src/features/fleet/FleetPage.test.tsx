import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { capacityByClusterModel, capacityByModel, plannerToken, teamToken } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { recorded, server } from '../../test/server';

const range = 'start=2026-12-01T00:00:00Z&end=2026-12-02T00:00:00Z';

test('the snapshot shows the API numbers per model and in total', async () => {
  renderApp(`/fleet?${range}`, plannerToken);
  expect(await screen.findByRole('heading', { level: 1, name: 'Fleet' })).toBeInTheDocument();
  expect(await screen.findByTestId('fleet-devices')).toHaveTextContent('48');
  expect(screen.getByTestId('fleet-held')).toHaveTextContent('42.5');
  expect(screen.getByTestId('fleet-held')).toHaveAttribute('data-value', '42500');
  expect(screen.getByTestId('fleet-used')).toHaveAttribute('data-value', '33250');
  // (48 x 1000 - 42500) / 48000
  expect(screen.getByTestId('fleet-idle')).toHaveTextContent('11.5%');
  expect(screen.getByTestId('fleet-model-held-A100-80GB')).toHaveTextContent('12.5');
  expect(screen.getByTestId('fleet-model-used-H100-SXM5-80GB')).toHaveTextContent('27');
});

test('unmet demand lists the pending pods and their total', async () => {
  renderApp(`/fleet?${range}`, plannerToken);
  expect(await screen.findByTestId('pending-requested')).toHaveTextContent('8.5');
  expect(screen.getByTestId('pending-count')).toHaveTextContent('2');
  expect(within(screen.getByTestId('pending-table')).getByText('trainer-1')).toBeInTheDocument();
});

test('the capacity chart draws one stacked series per model plus the fleet capacity, every bucket', async () => {
  renderApp(`/fleet?${range}`, plannerToken);
  const chart = await screen.findByTestId('fleet-capacity-chart');
  expect(JSON.parse(chart.getAttribute('data-series')!)).toEqual([
    ['A100-80GB', 24],
    ['H100-SXM5-80GB', 24],
    ['capacity (all)', 24],
  ]);
  const capacity = recorded('/v1/fleet/capacity').map((u) => Object.fromEntries(u.searchParams));
  expect(capacity).toContainEqual({
    start: '2026-12-01T00:00:00Z',
    end: '2026-12-02T00:00:00Z',
    resolution: 'hour',
    group_by: 'model',
    layout: 'columnar',
  });
  expect(await screen.findByTestId('fleet-heatmap')).toHaveAttribute('data-ready', 'true');
  expect(recorded('/v1/fleet/capacity').some((u) => u.searchParams.get('group_by') === 'cluster,model')).toBe(true);
});

test("the heatmap's series is asked for only once the main chart is drawn", async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  // This handler comes before the recording one: it records the calls itself.
  const asked: (string | null)[] = [];
  server.use(
    http.get('*/v1/fleet/capacity', async ({ request }) => {
      const groupBy = new URL(request.url).searchParams.get('group_by');
      asked.push(groupBy);
      if (groupBy === 'model') await gate;
      return HttpResponse.json((groupBy === 'model' ? capacityByModel : capacityByClusterModel) as Record<string, unknown>);
    }),
  );
  renderApp(`/fleet?${range}`, plannerToken);
  expect(await screen.findByText('Loading the capacity series…')).toBeInTheDocument();
  // Give a wrongly eager page the time to ask.
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(asked).toEqual(['model']);
  release();
  expect(await screen.findByTestId('fleet-capacity-chart')).toBeInTheDocument();
  expect(await screen.findByTestId('fleet-heatmap')).toHaveAttribute('data-ready', 'true');
  expect(asked).toEqual(['model', 'cluster,model']);
});

test('the time-range picker writes the range to the URL and the page asks the API for it', async () => {
  const { router } = renderApp(`/fleet?${range}`, plannerToken);
  await screen.findByTestId('fleet-capacity-chart');
  await userEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
  await waitFor(() => expect(router.state.location.search).toBe('?range=30d'));
  await waitFor(() =>
    expect(
      recorded('/v1/fleet/capacity').some((u) => {
        const hours = (Date.parse(u.searchParams.get('end')!) - Date.parse(u.searchParams.get('start')!)) / 3_600_000;
        return hours === 720;
      }),
    ).toBe(true),
  );

  await userEvent.click(screen.getByRole('button', { name: 'Custom' }));
  const start = screen.getByLabelText('Start (UTC)');
  const end = screen.getByLabelText('End (UTC)');
  await userEvent.clear(start);
  await userEvent.type(start, '2026-11-01T00:00');
  await userEvent.clear(end);
  await userEvent.type(end, '2026-11-03T12:00');
  await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
  await waitFor(() =>
    expect(router.state.location.search).toBe('?start=2026-11-01T00%3A00%3A00Z&end=2026-11-03T12%3A00%3A00Z'),
  );
});

test('a team token gets its subtree grouped by team, and no fleet-wide snapshot call', async () => {
  renderApp(`/fleet?${range}`, teamToken);
  await screen.findByTestId('fleet-capacity-chart');
  expect(screen.getByText(/fleet-wide snapshot is for planners/)).toBeInTheDocument();
  expect(recorded('/v1/fleet/summary')).toHaveLength(0);
  const groups = recorded('/v1/fleet/capacity').map((u) => u.searchParams.get('group_by'));
  expect(groups.length).toBeGreaterThan(0);
  expect(groups.every((g) => g === 'team')).toBe(true);
});

test('403 and 503 from the API are shown as messages, not empty charts', async () => {
  server.use(
    http.get('*/v1/fleet/capacity', () =>
      HttpResponse.json({ code: 7, status: 'PERMISSION_DENIED', message: 'team tokens see only their subtree' }, { status: 403 }),
    ),
    http.get('*/v1/fleet/pending', () =>
      HttpResponse.json({ code: 14, status: 'UNAVAILABLE', message: 'database unavailable' }, { status: 503 }),
    ),
  );
  renderApp(`/fleet?${range}`, plannerToken);
  await waitFor(() => expect(screen.getAllByTestId('error-message').length).toBeGreaterThanOrEqual(3));
  const text = screen.getAllByTestId('error-message').map((e) => e.textContent).join('\n');
  expect(text).toMatch(/Could not load the capacity series\. Your token may not see this/);
  expect(text).toMatch(/Could not load the pending accelerator pods\. The fleetcap service is unavailable right now/);
  expect(screen.queryByTestId('fleet-capacity-chart')).toBeNull();
});

test('until the series arrives a skeleton is shown, not an empty chart', async () => {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  server.use(
    http.get('*/v1/fleet/capacity', async () => {
      await gate;
      return HttpResponse.json({ groups: [] });
    }),
  );
  renderApp(`/fleet?${range}`, plannerToken);
  expect(await screen.findByText('Loading the capacity series…')).toBeInTheDocument();
  expect(screen.queryByTestId('fleet-capacity-chart')).toBeNull();
  release();
  expect(await screen.findByTestId('fleet-capacity-chart')).toBeInTheDocument();
});
