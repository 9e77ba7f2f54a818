// The mocked API (MSW): every test starts from these answers and overrides
// what it needs with server.use(...). Requests are recorded for assertions.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import * as fixtures from './fixtures';

export const requests: URL[] = [];
export const authHeaders: (string | null)[] = [];

export function recorded(path: string): URL[] {
  return requests.filter((url) => url.pathname === path);
}

const json = (body: unknown) => HttpResponse.json(body as Record<string, unknown>);

export const handlers = [
  http.all('*', ({ request }) => {
    requests.push(new URL(request.url));
    authHeaders.push(request.headers.get('authorization'));
    // fall through to the route's handler
  }),
  http.get('*/v1/tokens/self', ({ request }) => {
    const auth = request.headers.get('authorization');
    if (auth === `Bearer ${fixtures.teamToken}`) return json(fixtures.whoTeam);
    if (auth === `Bearer ${fixtures.plannerToken}`) return json(fixtures.whoPlanner);
    return HttpResponse.json({ code: 16, status: 'UNAUTHENTICATED', message: 'unknown token' }, { status: 401 });
  }),
  http.get('*/v1/fleet/summary', () => json(fixtures.fleetSummary)),
  http.get('*/v1/fleet/capacity', ({ request }) => {
    const groupBy = new URL(request.url).searchParams.get('group_by') ?? '';
    return json(groupBy.includes('cluster') ? fixtures.capacityByClusterModel : fixtures.capacityByModel);
  }),
  http.get('*/v1/fleet/pending', () => json(fixtures.pending)),
  http.get('*/v1/chargeback', ({ request }) => json(fixtures.chargebackFor(new URL(request.url).searchParams))),
  http.get('*/v1/chargeback/export', ({ request }) => {
    const format = new URL(request.url).searchParams.get('format');
    return new HttpResponse(`${format}-header\nrow`, { headers: { 'Content-Type': 'text/csv' } });
  }),
  http.get('*/v1/chargeback/explain', () => json(fixtures.explanation)),
  http.get('*/v1/recommendations', () => json(fixtures.recommendationSet)),
  http.get('*/v1/recommendations/manifests', ({ request }) => {
    const format = new URL(request.url).searchParams.get('format');
    return new HttpResponse(`# ${format}\n`, { headers: { 'Content-Type': 'text/yaml' } });
  }),
  http.get('*/v1/policy', ({ request }) => {
    const version = Number(new URL(request.url).searchParams.get('version') ?? '0');
    return json(fixtures.policyVersions.find((v) => v.version === (version || 2)));
  }),
  http.get('*/v1/policy/history', () => json({ versions: fixtures.policyVersions })),
];

export const server = setupServer(...handlers);

export function resetRecorded(): void {
  requests.length = 0;
  authHeaders.length = 0;
}
