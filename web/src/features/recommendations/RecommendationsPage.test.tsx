import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import * as download from '../../components/download';
import { teamToken } from '../../test/fixtures';
import { renderApp } from '../../test/render';
import { recorded } from '../../test/server';

test('current guarantee against the recommendation, what bound it, the change since the last run and the demand', async () => {
  renderApp('/recommendations', teamToken);
  expect(await screen.findByRole('heading', { level: 1, name: 'Recommendations' })).toBeInTheDocument();
  expect(await screen.findByTestId('rec-recommended-ml/h100')).toHaveTextContent('20.5');
  expect(screen.getByTestId('rec-guarantee-ml/h100')).toHaveAttribute('data-value', '16000');
  expect(screen.getByTestId('rec-demand-ml/h100')).toHaveTextContent('20.5');
  expect(screen.getByTestId('rec-change-ml/h100')).toHaveTextContent('+2.5');
  expect(screen.getByTestId('rec-change-web/t4')).toHaveTextContent('new');
  const web = within(screen.getByTestId('rec-table')).getByRole('row', { name: /t4/ });
  expect(web).toHaveTextContent('guarantee');
  // Columns: team, flavor, guarantee, recommended, change, measured, demand, Kueue borrowingLimit, lendingLimit, bound by.
  expect(within(web).getAllByRole('cell')[7]).toHaveTextContent(/^0$/); // may borrow nothing
  expect(within(screen.getByTestId('rec-table')).getByRole('row', { name: /h100/ })).toHaveTextContent('unlimited');
  expect(screen.getByText(/changes are against run 41/)).toBeInTheDocument();
});

test('the measured demand beside the demand with headroom, and the limits exactly as the Kueue manifests write them', async () => {
  renderApp('/recommendations', teamToken);
  expect(await screen.findByTestId('rec-measured-ml/h100')).toHaveTextContent('17.084');
  expect(screen.getByTestId('rec-demand-ml/h100')).toHaveTextContent('20.5');
  expect(screen.getByTestId('rec-measured-web/t4')).toHaveTextContent('not measured');
  // The manifest's quantities, not the policy's limits: the same numbers in the same units.
  expect(screen.getByTestId('rec-lending-ml/h100')).toHaveTextContent(/^8500m$/);
  expect(screen.getByTestId('rec-borrowing-ml/h100')).toHaveTextContent('none (unlimited)');
  expect(screen.getByTestId('rec-borrowing-web/t4')).toHaveTextContent(/^0$/);
  expect(screen.getByTestId('rec-lending-web/t4')).toHaveTextContent(/^0$/);
  expect(screen.queryByText('May borrow')).not.toBeInTheDocument();
});

test('Kueue and Volcano manifests are downloaded from the API', async () => {
  const saved = vi.spyOn(download, 'downloadText').mockImplementation(() => undefined);
  renderApp('/recommendations', teamToken);
  await screen.findByTestId('rec-table');
  await userEvent.click(screen.getByRole('button', { name: 'Download Kueue manifests' }));
  await userEvent.click(screen.getByRole('button', { name: 'Download Volcano manifests' }));
  await waitFor(() => expect(saved).toHaveBeenCalledTimes(2));
  expect(recorded('/v1/recommendations/manifests').map((u) => u.searchParams.get('format'))).toEqual(['kueue', 'volcano']);
  expect(saved.mock.calls[0]).toEqual(['fleetcap-kueue-run-42.yaml', '# kueue\n', 'text/yaml']);
  saved.mockRestore();
});
