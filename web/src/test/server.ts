// The mocked API (MSW): every test starts from these answers and overrides
// what it needs with server.use(...). Requests are recorded for assertions.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { SavedScenario, SavedView } from '../api/types';
import * as fixtures from './fixtures';

export const requests: URL[] = [];
export const authHeaders: (string | null)[] = [];
// Scenarios saved in this test (POST /v1/scenarios), newest last.
const savedHere: SavedScenario[] = [];
// Views saved in this test (POST /v1/views), by name: one token's, as the API keeps each token's.
const viewsHere = new Map<string, SavedView>();

export function recorded(path: string): URL[] {
  return requests.filter((url) => url.pathname === path);
}

const json = (body: unknown) => HttpResponse.json(body as Record<string, unknown>);
const refuse = (status: number, code: number, name: string, message: string) =>
  HttpResponse.json({ code, status: name, message }, { status });

// GET /v1/forecast as the API rules it: a team token reads its subtree's
// series only, never a flavor's total (403 either way); t4 has no stored run.
function forecastAnswer(request: Request) {
  const params = new URL(request.url).searchParams;
  const team = params.get('team');
  if (request.headers.get('authorization') === `Bearer ${fixtures.teamToken}`) {
    if (team === null || !(fixtures.whoTeam.teams ?? []).includes(team)) {
      return refuse(403, 7, 'PERMISSION_DENIED', `team ${team ?? '(total)'}: outside the token's teams`);
    }
  }
  const flavor = params.get('flavor') ?? '';
  if (flavor === 't4') return refuse(404, 5, 'NOT_FOUND', `no forecast series for flavor ${flavor}`);
  return json(fixtures.forecastFor(flavor, team));
}

// POST /v1/scenarios/run and /v1/scenarios: a document with a `pool:` key is
// refused as the API refuses it, every problem on its own line.
async function scenarioAnswer(request: Request, save: boolean) {
  const body = (await request.json()) as { name?: string; scenarioYaml?: string };
  if (request.headers.get('authorization') === `Bearer ${fixtures.teamToken}`) {
    return refuse(403, 7, 'PERMISSION_DENIED', 'scenarios are for planners and admins');
  }
  if ((body.scenarioYaml ?? '').includes('pool:')) {
    return refuse(
      400,
      3,
      'INVALID_ARGUMENT',
      'scenario:6:5: capacity[0].pool: unknown key "pool" (expected one of flavor, add, remove, from)\n' +
        'scenario:3: demand[0].team: unknown team "ghost" (not in policy version 2)',
    );
  }
  if (!save) return json(fixtures.scenarioComparison);
  const saved: SavedScenario = {
    id: String(10 + savedHere.length),
    name: body.name,
    policyVersion: 2,
    savedAt: '2026-12-05T12:00:00Z',
    savedBy: 'token:t1',
    scenarioYaml: body.scenarioYaml,
    result: fixtures.scenarioComparison,
  };
  savedHere.push(saved);
  return json(saved);
}

// The org tree of the insights' answers: ml holds ml-research and ml-serving.
const subtreeOf = (team: string) => (team === 'ml' ? (fixtures.whoTeam.teams ?? []) : [team]);

// GET /v1/insights/*: a team token may ask for its subtree only, and always
// names a team (the fleet's figures are the planners'); an answer for a team
// keeps that team's subtree.
function insightsAnswer(request: Request, forTeam: (team: string) => unknown, fleet: unknown) {
  const team = new URL(request.url).searchParams.get('team');
  if (request.headers.get('authorization') === `Bearer ${fixtures.teamToken}`) {
    if (team === null || !(fixtures.whoTeam.teams ?? []).includes(team)) {
      return refuse(403, 7, 'PERMISSION_DENIED', `team ${team ?? '(fleet)'}: outside the token's teams`);
    }
  }
  return json(team === null ? fleet : forTeam(team));
}

function wasteOfTeam(team: string) {
  const inTree = (t: { team?: string }) => subtreeOf(team).includes(t.team ?? '');
  const report = fixtures.wasteReport;
  return { ...report, efficiency: report.efficiency?.filter(inTree), teams: report.teams?.filter(inTree) };
}

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
  // The fleet's assets are the planners': a team token is refused, as the API refuses it.
  http.get('*/v1/fleet/assets', ({ request }) =>
    request.headers.get('authorization') === `Bearer ${fixtures.teamToken}`
      ? refuse(403, 7, 'PERMISSION_DENIED', 'assets: outside the scope of this token')
      : json(fixtures.assetsFor(new URL(request.url).searchParams)),
  ),
  http.get('*/v1/fleet/assets/holds', () => json(fixtures.deviceHoldsOfG0)),
  http.get('*/v1/fleet/assets/export', () => new HttpResponse('model,cluster\r\nA100,c1\r\n', { headers: { 'Content-Type': 'text/csv' } })),
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
  http.get('*/v1/insights/waste', ({ request }) => insightsAnswer(request, wasteOfTeam, fixtures.wasteReport)),
  http.get('*/v1/insights/rightsizing', ({ request }) =>
    insightsAnswer(request, () => fixtures.rightsizingReport, fixtures.rightsizingReport),
  ),
  http.get('*/v1/insights/changes', ({ request }) =>
    insightsAnswer(request, () => fixtures.spendChangeReport, fixtures.spendChangeReport),
  ),
  http.get('*/v1/insights/budgets', ({ request }) =>
    insightsAnswer(
      request,
      (team) => ({ ...fixtures.budgetReport, budgets: fixtures.budgetReport.budgets?.filter((b) => subtreeOf(team).includes(b.team ?? '')) }),
      fixtures.budgetReport,
    ),
  ),
  http.get('*/v1/policy/history', () => json({ versions: fixtures.policyVersions })),
  http.get('*/v1/forecast', ({ request }) => forecastAnswer(request)),
  http.post('*/v1/scenarios/run', ({ request }) => scenarioAnswer(request, false)),
  http.post('*/v1/scenarios', ({ request }) => scenarioAnswer(request, true)),
  http.get('*/v1/scenarios', () =>
    json({ scenarios: [...[...savedHere].reverse().map(({ scenarioYaml: _, result: __, ...rest }) => rest), ...fixtures.savedScenarios] }),
  ),
  http.get('*/v1/views', () => json({ views: [...viewsHere.values()].sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '')) })),
  http.post('*/v1/views', async ({ request }) => {
    const view = (await request.json()) as SavedView;
    const saved = { ...view, savedAt: '2026-12-04T18:00:00Z' };
    viewsHere.set(view.name ?? '', saved);
    return json(saved);
  }),
  http.post('*/v1/views/remove', async ({ request }) => {
    const { name } = (await request.json()) as { name?: string };
    if (!viewsHere.delete(name ?? '')) return refuse(404, 5, 'NOT_FOUND', 'view: no saved view of that name');
    return json({});
  }),
  http.get('*/v1/scenarios/get', ({ request }) => {
    const id = new URL(request.url).searchParams.get('id');
    const found = [...savedHere, ...fixtures.savedScenarios].find((s) => s.id === id);
    if (!found) return refuse(404, 5, 'NOT_FOUND', `scenario ${id}: not found`);
    return json({ scenarioYaml: fixtures.savedScenarioYaml, result: fixtures.scenarioComparison, ...found });
  }),
];

export const server = setupServer(...handlers);

export function resetRecorded(): void {
  requests.length = 0;
  authHeaders.length = 0;
  savedHere.length = 0;
  viewsHere.clear();
}
