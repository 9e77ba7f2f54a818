import { useState } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider, type createMemoryRouter } from 'react-router-dom';
import { SessionProvider } from './auth/session';
import { createQueryClient } from './queryClient';
import { createRoutes } from './routes';

type Router = ReturnType<typeof createBrowserRouter> | ReturnType<typeof createMemoryRouter>;

// Tests pass a memory router and a fresh query client.
export function App({ router, queryClient }: { router?: Router; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [appRouter] = useState(() => router ?? createBrowserRouter(createRoutes(client)));
  return (
    <QueryClientProvider client={client}>
      <SessionProvider>
        <RouterProvider router={appRouter} />
      </SessionProvider>
    </QueryClientProvider>
  );
}
