import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router-dom';
import { App } from '../App';
import { tokenStorageKey } from '../api/token';
import { createQueryClient } from '../queryClient';
import { createRoutes } from '../routes';
import { resetRecorded } from './server';

// The whole app at `path`, signed in with `token` (null: signed out).
export function renderApp(path: string, token: string | null) {
  resetRecorded();
  if (token !== null) window.sessionStorage.setItem(tokenStorageKey, token);
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false } });
  const router = createMemoryRouter(createRoutes(queryClient), { initialEntries: [path] });
  const result = render(<App router={router} queryClient={queryClient} />);
  return { ...result, router };
}
