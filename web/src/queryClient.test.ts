import { http, HttpResponse } from 'msw';
import { server } from './test/server';
import { apiGet } from './api/client';
import { ApiError } from './api/errors';
import { createQueryClient, retryDelay, shouldRetry } from './queryClient';

test('a request refused for now is asked again when the server says, until it is answered', async () => {
  let asked = 0;
  server.use(
    http.get('*/v1/fleet/summary', () => {
      asked += 1;
      if (asked <= 3) {
        return HttpResponse.json({ message: 'busy' }, { status: 429, headers: { 'Retry-After': '0' } });
      }
      return HttpResponse.json({ devices: 7 });
    }),
  );
  const client = createQueryClient();
  const answer = await client.fetchQuery({
    queryKey: ['summary'],
    queryFn: () => apiGet<{ devices: number }>('/v1/fleet/summary'),
    retry: client.getDefaultOptions().queries?.retry,
  });
  expect(answer.devices).toBe(7);
  expect(asked).toBe(4);
});

test('retries: patient after a Retry-After, twice when the service is away, never for a refusal', () => {
  const busy = new ApiError('busy', 429, 'x', 1000);
  expect(shouldRetry(7, busy)).toBe(true);
  expect(shouldRetry(8, busy)).toBe(false);
  expect(retryDelay(3, busy)).toBe(1000);
  expect(retryDelay(0, new ApiError('busy', 429, 'x', 600_000))).toBe(30_000);

  const away = new ApiError('unavailable', 503, 'database unavailable');
  expect(shouldRetry(1, away)).toBe(true);
  expect(shouldRetry(2, away)).toBe(false);
  expect(retryDelay(1, away)).toBe(2000);

  expect(shouldRetry(0, new ApiError('forbidden', 403, 'x'))).toBe(false);
  expect(shouldRetry(0, new ApiError('bad_request', 400, 'x'))).toBe(false);
  expect(shouldRetry(0, new Error('x'))).toBe(false);
});
