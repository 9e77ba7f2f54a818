import { tokenStorageKey } from '../../api/token';
import * as fixtures from '../../test/fixtures';
import { authHeaders, requests, resetRecorded } from '../../test/server';
import { startEarlyFleetRequests, takeEarlyFleetRequests } from './earlyFleetRequests';

const search = '?start=2026-12-01T00:00:00Z&end=2026-12-02T00:00:00Z';
const now = Date.parse('2026-12-02T00:00:00Z');

// The calls made with `token` (requests of an earlier test may still land).
const sent = (path: string, token: string) =>
  requests.filter((url, i) => url.pathname === path && authHeaders[i] === `Bearer ${token}`);

beforeEach(() => resetRecorded());

test('a planner on /fleet: whoami, then the hourly series by model, columnar, and not yet the heatmap', async () => {
  window.sessionStorage.setItem(tokenStorageKey, fixtures.plannerToken);
  startEarlyFleetRequests({ pathname: '/fleet', search }, now);
  const early = takeEarlyFleetRequests(fixtures.plannerToken)!;
  expect(await early.who).toEqual(fixtures.whoPlanner);
  const answers = await early.series;
  expect(answers.map((a) => a.queryKey)).toEqual([['capacity', '2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z', 'hour', 'model']]);
  expect(await answers[0]!.answer).toEqual(fixtures.capacityByModel);
  const calls = sent('/v1/fleet/capacity', fixtures.plannerToken);
  expect(calls.map((u) => u.searchParams.get('group_by'))).toEqual(['model']);
  expect(calls.map((u) => u.searchParams.get('layout'))).toEqual(['columnar']);
});

test('a team token asks only for its teams, never for a grouping it may not see', async () => {
  window.sessionStorage.setItem(tokenStorageKey, fixtures.teamToken);
  startEarlyFleetRequests({ pathname: '/fleet', search: `${search}&group=model` }, now);
  const answers = await takeEarlyFleetRequests(fixtures.teamToken)!.series;
  await Promise.all(answers.map((a) => a.answer));
  expect(sent('/v1/fleet/capacity', fixtures.teamToken).map((u) => u.searchParams.get('group_by'))).toEqual(['team']);
});

test('nothing is sent off /fleet or signed out, and the requests are handed over once, to the same token only', async () => {
  startEarlyFleetRequests({ pathname: '/fleet', search }, now);
  expect(takeEarlyFleetRequests(fixtures.plannerToken)).toBeNull();
  window.sessionStorage.setItem(tokenStorageKey, fixtures.plannerToken);
  startEarlyFleetRequests({ pathname: '/chargeback', search }, now);
  expect(takeEarlyFleetRequests(fixtures.plannerToken)).toBeNull();
  expect(sent('/v1/tokens/self', fixtures.plannerToken)).toHaveLength(0);

  startEarlyFleetRequests({ pathname: '/fleet', search }, now);
  expect(takeEarlyFleetRequests(fixtures.teamToken)).toBeNull();
  startEarlyFleetRequests({ pathname: '/fleet', search }, now);
  expect(takeEarlyFleetRequests(fixtures.plannerToken)).not.toBeNull();
  expect(takeEarlyFleetRequests(fixtures.plannerToken)).toBeNull();
});

test('a refused token is not an unhandled rejection: the page shows it through its own query', async () => {
  window.sessionStorage.setItem(tokenStorageKey, 'fct_unknown');
  startEarlyFleetRequests({ pathname: '/fleet', search }, now);
  const early = takeEarlyFleetRequests('fct_unknown')!;
  await expect(early.who).rejects.toThrow();
  await expect(early.series).rejects.toThrow();
  expect(sent('/v1/fleet/capacity', 'fct_unknown')).toHaveLength(0);
});
