import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { presetRange } from '../time/range';
import { useTimeRange } from '../time/useTimeRange';
import { TimeRangePicker } from './TimeRangePicker';

function Page() {
  return <TimeRangePicker range={useTimeRange()} />;
}

function renderPicker(path: string) {
  const router = createMemoryRouter([{ path: '/page', element: <Page /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const search = (router: ReturnType<typeof renderPicker>) => new URLSearchParams(router.state.location.search);
const startInput = () => screen.getByLabelText('Start (UTC)') as HTMLInputElement;
const endInput = () => screen.getByLabelText('End (UTC)') as HTMLInputElement;

test('a custom range in the URL opens the form with it, and a preset closes it', async () => {
  const router = renderPicker('/page?start=2026-11-01T00:00:00Z&end=2026-11-03T12:00:00Z');
  expect(screen.getByRole('button', { name: 'Custom' })).toHaveAttribute('aria-pressed', 'true');
  expect(startInput().value).toBe('2026-11-01T00:00');
  expect(endInput().value).toBe('2026-11-03T12:00');
  await userEvent.click(screen.getByRole('button', { name: 'Last 24 h' }));
  await waitFor(() => expect(search(router).get('range')).toBe('24h'));
  expect(search(router).get('start')).toBeNull();
  expect(screen.queryByLabelText('Start (UTC)')).toBeNull();
  expect(screen.getByRole('button', { name: 'Last 24 h' })).toHaveAttribute('aria-pressed', 'true');
  expect(screen.getByRole('button', { name: 'Custom' })).toHaveAttribute('aria-pressed', 'false');
});

test('every preset is a button that writes its name to the URL', async () => {
  const router = renderPicker('/page');
  for (const [label, name] of [
    ['Today', 'today'],
    ['Yesterday', 'yesterday'],
    ['Month to date', 'month'],
    ['Last month', 'last-month'],
    ['Last 90 days', '90d'],
  ]) {
    await userEvent.click(screen.getByRole('button', { name: label }));
    await waitFor(() => expect(search(router).get('range')).toBe(name));
    expect(screen.getByRole('button', { name: label })).toHaveAttribute('aria-pressed', 'true');
    const shown = presetRange(name as Parameters<typeof presetRange>[0], Date.now());
    expect(screen.getByTestId('range-shown')).toHaveTextContent(shown.start.replace('T', ' '));
  }
});

test('Custom starts from the range on screen, not the one the page opened with', async () => {
  renderPicker('/page?start=2026-11-01T00:00:00Z&end=2026-11-03T12:00:00Z');
  await userEvent.click(screen.getByRole('button', { name: 'Last 24 h' }));
  await userEvent.click(screen.getByRole('button', { name: 'Custom' }));
  const day = presetRange('24h', Date.now());
  expect(startInput().value).toBe(day.start.slice(0, 16));
  expect(endInput().value).toBe(day.end.slice(0, 16));
});

test('Back from a custom range to a preset closes the form and shows the preset', async () => {
  const router = renderPicker('/page?range=30d');
  expect(screen.queryByLabelText('Start (UTC)')).toBeNull();
  await userEvent.click(screen.getByRole('button', { name: 'Custom' }));
  await userEvent.clear(startInput());
  await userEvent.type(startInput(), '2026-11-01T00:00');
  await userEvent.clear(endInput());
  await userEvent.type(endInput(), '2026-11-02T00:00');
  await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
  await waitFor(() => expect(search(router).get('start')).toBe('2026-11-01T00:00:00Z'));
  expect(search(router).get('range')).toBeNull();
  await act(() => router.navigate(-1));
  await waitFor(() => expect(search(router).get('range')).toBe('30d'));
  expect(screen.queryByLabelText('Start (UTC)')).toBeNull();
  expect(screen.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true');
});

test('a custom range ending before it starts is refused in the form, the URL unchanged', async () => {
  const router = renderPicker('/page?range=7d');
  await userEvent.click(screen.getByRole('button', { name: 'Custom' }));
  await userEvent.clear(startInput());
  await userEvent.type(startInput(), '2026-11-02T00:00');
  await userEvent.clear(endInput());
  await userEvent.type(endInput(), '2026-11-01T00:00');
  await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
  expect(await screen.findByRole('alert')).toHaveTextContent('The end must be after the start.');
  expect(router.state.location.search).toBe('?range=7d');
});
