import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { plannerToken, testRangeQuery } from '../test/fixtures';
import { renderApp } from '../test/render';
import { recorded } from '../test/server';

test('the page on screen is saved with its URL state under a name, opens again from the list, and can be removed', async () => {
  const { router } = renderApp(`/chargeback?${testRangeQuery}&stack=model&idle=kept`, plannerToken);
  const saved = await screen.findByTestId('saved-views');
  await userEvent.click(within(saved).getByText(/Saved views/));
  await userEvent.type(within(saved).getByLabelText('View name'), '  Idle by model  ');
  await userEvent.click(within(saved).getByRole('button', { name: 'Save this view' }));
  const link = await within(saved).findByRole('link', { name: 'Idle by model' });
  expect(link).toHaveAttribute('href', `/chargeback?${testRangeQuery}&stack=model&idle=kept`);
  const posted = recorded('/v1/views');
  expect(posted.length).toBeGreaterThan(0);

  await router.navigate('/fleet');
  await userEvent.click(await within(screen.getByTestId('saved-views')).findByRole('link', { name: 'Idle by model' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/chargeback'));
  expect(new URLSearchParams(router.state.location.search).get('stack')).toBe('model');
  expect(new URLSearchParams(router.state.location.search).get('idle')).toBe('kept');

  await userEvent.click(within(screen.getByTestId('saved-views')).getByRole('button', { name: 'Remove Idle by model' }));
  await waitFor(() => expect(within(screen.getByTestId('saved-views')).queryByRole('link', { name: 'Idle by model' })).toBeNull());
});
