import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/errors';

// Retry only what may pass on a second try (the service briefly away);
// a refused token or a bad request will fail the same way again.
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        retry: (failures, error) =>
          failures < 2 && error instanceof ApiError && (error.kind === 'unavailable' || error.kind === 'network'),
      },
    },
  });
}
