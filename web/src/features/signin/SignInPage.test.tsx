import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tokenStorageKey } from '../../api/token';
import { teamToken } from '../../test/fixtures';
import { renderApp } from '../../test/render';

test('signed out, any page leads to the sign-in form', async () => {
  const { router } = renderApp('/chargeback', null);
  expect(await screen.findByRole('heading', { name: 'Sign in to fleetcap' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/signin');
});

test('a wrong token shows why and is not kept', async () => {
  renderApp('/signin', null);
  await userEvent.type(await screen.findByLabelText('API token'), 'fct_wrong');
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  expect(await screen.findByRole('alert')).toHaveTextContent(/token was not accepted/);
  expect(window.sessionStorage.getItem(tokenStorageKey)).toBeNull();
});

test('a team token signs in, is kept in session storage only, and the scope is shown; sign-out forgets it', async () => {
  const { router } = renderApp('/signin', null);
  await userEvent.type(await screen.findByLabelText('API token'), teamToken);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  const banner = await screen.findByTestId('scope-banner');
  expect(banner).toHaveTextContent('You see team ml and its sub-teams (ml-research, ml-serving).');
  expect(window.sessionStorage.getItem(tokenStorageKey)).toBe(teamToken);
  expect(router.state.location.pathname).toBe('/fleet');
  expect(router.state.location.search).not.toContain(teamToken);

  await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
  await waitFor(() => expect(router.state.location.pathname).toBe('/signin'));
  expect(window.sessionStorage.getItem(tokenStorageKey)).toBeNull();
});
