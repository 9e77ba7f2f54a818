import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import * as download from '../../components/download';
import { plannerToken, teamToken, testRange, testRangeQuery } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { recorded } from '../../test/server';

test('by model: exact figures, unknown where the chargeback has none, and the totals', async () => {
  renderApp(`/assets?${testRangeQuery}`, plannerToken);
  expect(await screen.findByRole('heading', { level: 1, name: 'Assets' })).toBeInTheDocument();
  // Beyond 2^53 micro-units: printed without floats.
  expect(await screen.findByTestId('assets-row-idle-cost-A100')).toHaveTextContent('EUR 9,007,199,254.74');
  expect(screen.getByTestId('assets-row-idle-cost-A100')).toHaveAttribute('data-value', '9007199254740993');
  expect(screen.getByTestId('assets-row-capacity-A100')).toHaveTextContent('80.0');
  expect(screen.getByTestId('assets-row-idle-A100')).toHaveTextContent('30.0');
  expect(screen.getByTestId('assets-row-used-A100')).toHaveTextContent('25.0');
  expect(screen.getByTestId('assets-row-efficiency-A100')).toHaveTextContent('75.0%');
  // T4: no chargeback line yet: unknown, never 0.
  expect(screen.getByTestId('assets-row-used-T4')).toHaveTextContent('unknown');
  expect(screen.getByTestId('assets-row-efficiency-T4')).toHaveTextContent('unknown');
  expect(screen.getByTestId('assets-row-idle-cost-T4')).toHaveAttribute('data-value', 'unknown');
  expect(screen.getByTestId('assets-total-idle-cost')).toHaveTextContent('unknown');
  expect(screen.getByTestId('assets-total-idle')).toHaveAttribute('data-value', '172800000');
  expect(screen.getByTestId('assets-groups')).toHaveAttribute('data-value', '2');
  const table = screen.getByTestId('assets-table');
  expect(within(table).getByRole('row', { name: /^A100/ })).toHaveTextContent('62.5%'); // held of capacity
  const calls = recorded('/v1/fleet/assets').map((u) => Object.fromEntries(u.searchParams));
  expect(calls).toContainEqual({ ...testRange, group_by: 'model', limit: '1000' });
});

test('a model leads to its nodes, a node to its devices and a device to its pods, all in the URL', async () => {
  const { router } = renderApp(`/assets?${testRangeQuery}&group_by=node&cluster=c1&model=A100&node=n1`, plannerToken);
  const search = () => new URLSearchParams(router.state.location.search);
  await screen.findByTestId('assets-table');
  await waitFor(() => expect(recorded('/v1/fleet/assets').length).toBeGreaterThan(0));
  await userEvent.selectOptions(screen.getByTestId('assets-group-by'), 'device');
  await waitFor(() => expect(search().get('group_by')).toBe('device'));
  expect(await screen.findByTestId('assets-row-idle-cost-c1/n1/g0')).toHaveTextContent('EUR 1.25');
  // A device held for seconds is not shown as held for nothing.
  expect(screen.getByTestId('assets-row-held-c1/n1/g1')).toHaveTextContent('< 0.1');
  expect(screen.getByTestId('assets-row-held-c1/n1/g1')).toHaveAttribute('data-value', '90000');
  // A device's used time is what its holds used.
  expect(screen.getByTestId('assets-row-used-c1/n1/g0')).toHaveTextContent('1.3');
  expect(screen.getByTestId('assets-row-efficiency-c1/n1/g0')).toHaveTextContent('50.0%');
  expect(screen.getByTestId('assets-row-used-c1/n1/g1')).toHaveTextContent('0.0');
  expect(screen.getByTestId('assets-row-efficiency-c1/n1/g1')).toHaveTextContent('–');
  const calls = recorded('/v1/fleet/assets').map((u) => Object.fromEntries(u.searchParams));
  expect(calls).toContainEqual({ ...testRange, group_by: 'device', cluster: 'c1', model: 'A100', node: 'n1', limit: '1000' });
  await userEvent.click(screen.getByRole('button', { name: 'c1/n1/g0' }));
  await waitFor(() => expect(search().get('device')).toBe('g0'));
  expect(search().get('device_cluster')).toBe('c1');
  const holds = await screen.findByTestId('assets-holds-table');
  expect(within(holds).getByRole('row', { name: /train-0/ })).toHaveTextContent('ml-train');
  expect(screen.getByTestId('assets-hold-held-0')).toHaveAttribute('data-value', '18000000');
  expect(screen.getByTestId('assets-hold-held-0')).toHaveTextContent('5.00 device-h');
  // Half a device for seven seconds is held time, not 0.0.
  expect(screen.getByTestId('assets-hold-held-1')).toHaveAttribute('data-value', '3500');
  expect(screen.getByTestId('assets-hold-held-1')).toHaveTextContent('3.5 device-s');
  const asked = recorded('/v1/fleet/assets/holds').map((u) => Object.fromEntries(u.searchParams));
  expect(asked).toContainEqual({ cluster: 'c1', device: 'g0', ...testRange });
});

test('the model level leads to the nodes of the model; filters are applied from the form', async () => {
  const { router } = renderApp(`/assets?${testRangeQuery}`, plannerToken);
  const search = () => new URLSearchParams(router.state.location.search);
  await userEvent.click(await screen.findByRole('button', { name: 'A100' }));
  await waitFor(() => expect(search().get('group_by')).toBe('node'));
  expect(search().get('model')).toBe('A100');
  await userEvent.type(screen.getByTestId('assets-filter-cluster'), 'c2');
  await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
  await waitFor(() => expect(search().get('cluster')).toBe('c2'));
  expect(search().get('model')).toBe('A100');
});

test('the table sorts by idle cost in the URL, unknown below every known cost', async () => {
  const { router } = renderApp(`/assets?${testRangeQuery}`, plannerToken);
  const table = await screen.findByTestId('assets-table');
  await screen.findByTestId('assets-row-idle-cost-A100');
  const cost = within(table).getByRole('columnheader', { name: /Idle cost/ });
  await userEvent.click(within(cost).getByRole('button'));
  await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('idle-cost:desc'));
  const names = within(table).getAllByRole('row').slice(1).map((row) => row.querySelector('td')?.textContent);
  expect(names).toEqual(['A100', 'T4']);
});

test('Export CSV asks the API for the view on screen: its grouping, filters, window and limit', async () => {
  const saved = vi.spyOn(download, 'downloadText').mockImplementation(() => undefined);
  renderApp(`/assets?${testRangeQuery}&group_by=node&cluster=c1&model=A100`, plannerToken);
  await screen.findByTestId('assets-table');
  await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
  await waitFor(() => expect(saved).toHaveBeenCalledTimes(1));
  const shown = recorded('/v1/fleet/assets').map((u) => Object.fromEntries(u.searchParams));
  const exported = recorded('/v1/fleet/assets/export').map((u) => Object.fromEntries(u.searchParams));
  expect(exported).toEqual([{ format: 'csv', ...shown.at(-1) }]);
  expect(exported[0]).toMatchObject({ ...testRange, group_by: 'node', cluster: 'c1', model: 'A100', limit: '1000' });
  expect(saved.mock.calls[0]![0]).toBe('assets-by-node-c1-A100-2026-11-27.csv');
  expect(saved.mock.calls[0]![1]).toBe('model,cluster\r\nA100,c1\r\n');
  saved.mockRestore();
});

test('a team token is told the page is for planners and asks for nothing', async () => {
  renderApp(`/assets?${testRangeQuery}`, teamToken);
  expect(await screen.findByTestId('assets-scope')).toHaveTextContent('for planners');
  expect(screen.queryByTestId('assets-table')).toBeNull();
  expect(recorded('/v1/fleet/assets')).toHaveLength(0);
});
