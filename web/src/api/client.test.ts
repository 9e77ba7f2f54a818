import { http, HttpResponse } from 'msw';
import { server, authHeaders, resetRecorded } from '../test/server';
import { apiGet, apiPost } from './client';
import { ApiError } from './errors';
import { tokenStorageKey } from './token';

const failWith = (status: number, message: string) =>
  server.use(http.get('*/v1/fleet/summary', () => HttpResponse.json({ code: 0, status: 'X', message }, { status })));

async function failure(): Promise<ApiError> {
  try {
    await apiGet('/v1/fleet/summary');
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call did not fail');
}

test('sends the session token as a bearer header and never in the URL', async () => {
  resetRecorded();
  window.sessionStorage.setItem(tokenStorageKey, 'fct_abc');
  await apiGet('/v1/fleet/summary', { cluster: 'east', at: undefined });
  expect(authHeaders).toEqual(['Bearer fct_abc']);
});

test('401, 403 and 503 become sentences a person understands', async () => {
  failWith(401, 'unknown token');
  const unauthenticated = await failure();
  expect(unauthenticated.kind).toBe('unauthenticated');
  expect(unauthenticated.message).toMatch(/token was not accepted.*Sign in again/);

  failWith(403, 'team:ml may not call GetFleetSummary');
  const forbidden = await failure();
  expect(forbidden.message).toMatch(/may not see this/);
  expect(forbidden.detail).toBe('team:ml may not call GetFleetSummary');

  failWith(503, 'database unavailable');
  expect((await failure()).message).toMatch(/unavailable right now/);
});

test('a bad request names the server message (input and field); a network failure says so', async () => {
  failWith(400, 'at: "yesterday" is not an RFC 3339 time');
  expect((await failure()).message).toBe('The request was refused: at: "yesterday" is not an RFC 3339 time');

  server.use(http.get('*/v1/fleet/summary', () => HttpResponse.error()));
  const network = await failure();
  expect(network.kind).toBe('network');
  expect(network.message).toMatch(/Could not reach the fleetcap service/);
});

test('a non-JSON error body is cut short', async () => {
  server.use(http.get('*/v1/fleet/summary', () => new HttpResponse('<html>' + 'x'.repeat(1000), { status: 502 })));
  const error = await failure();
  expect(error.kind).toBe('unavailable');
  expect(error.detail.length).toBe(200);
});

test('a POST sends its body as JSON with the bearer token, and its failure is an ApiError', async () => {
  resetRecorded();
  window.sessionStorage.setItem(tokenStorageKey, 'fct_abc');
  let received: unknown = null;
  server.use(
    http.post('*/v1/scenarios/run', async ({ request }) => {
      received = {
        auth: request.headers.get('authorization'),
        type: request.headers.get('content-type'),
        body: await request.json(),
      };
      return HttpResponse.json({ code: 3, status: 'INVALID_ARGUMENT', message: 'scenario:2:1: budget: unknown key' }, { status: 400 });
    }),
  );
  const error = await apiPost('/v1/scenarios/run', { scenarioYaml: 'version: 1\nbudget: 3\n' }).catch((e: unknown) => e);
  expect(received).toEqual({
    auth: 'Bearer fct_abc',
    type: 'application/json',
    body: { scenarioYaml: 'version: 1\nbudget: 3\n' },
  });
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).kind).toBe('bad_request');
  expect((error as ApiError).detail).toBe('scenario:2:1: budget: unknown key');
});

test('a request refused for now (429, Retry-After) is busy and says when to ask again', async () => {
  server.use(
    http.get('*/v1/fleet/summary', () =>
      HttpResponse.json(
        { code: 8, status: 'RESOURCE_EXHAUSTED', message: 'token t has 8 requests running' },
        { status: 429, headers: { 'Retry-After': '2' } },
      ),
    ),
  );
  const busy = await failure();
  expect(busy.kind).toBe('busy');
  expect(busy.retryAfterMs).toBe(2000);
  expect(busy.message).toMatch(/busy/);

  server.use(
    http.get('*/v1/fleet/summary', () =>
      HttpResponse.json({ message: 'x' }, { status: 503, headers: { 'Retry-After': 'Wed, 21 Oct 2015 07:28:00 GMT' } }),
    ),
  );
  expect((await failure()).retryAfterMs).toBeUndefined();
});
