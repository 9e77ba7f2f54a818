import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api/errors';

// Retry only what may pass on a second try. A request the server refused
// for now (its Retry-After: too many of the token's requests running, as
// after a reload while the last page's were still being answered) is asked
// again when the server says, up to eight times; the service briefly away,
// twice; a refused token or a bad request fails the same way again.
const PATIENT_RETRIES = 8;
const QUICK_RETRIES = 2;
const MAX_DELAY_MS = 30_000;

export function shouldRetry(failures: number, error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.retryAfterMs !== undefined) return failures < PATIENT_RETRIES;
  return failures < QUICK_RETRIES && (error.kind === 'unavailable' || error.kind === 'network');
}

export function retryDelay(failures: number, error: unknown): number {
  if (error instanceof ApiError && error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, MAX_DELAY_MS);
  return Math.min(1000 * 2 ** failures, MAX_DELAY_MS);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        retry: shouldRetry,
        retryDelay,
      },
    },
  });
}
