// A team token sees its own subtree and nothing else: the API refuses the
// other team's lines to it, and the dashboard, even when the URL names the
// other team, shows the token's team and none of the other's data.

import { apiGet, apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { chargebackAt, drillQuery } from './support/chargeback';
import { e2eEnv, windowQuery } from './support/env';
import { go, newPage, screenshot, seriousAccessibilityViolations } from './support/page';
import { PAGES } from './support/pages';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface WhoAmI {
  role?: string;
  teams?: string[];
}
interface ChargebackLine {
  team?: string;
}
interface ChargebackReport {
  lines?: ChargebackLine[];
}

test('the team token is what the harness says it is', async () => {
  const env = e2eEnv();
  const self = await apiOk<WhoAmI>('/v1/tokens/self', env.teamToken);
  expect(self.role).toBe(`team:${env.team}`);
  expect(self.teams).toContain(env.team);
  expect(self.teams).not.toContain(env.otherTeam);
});

test("the API refuses the other team's chargeback to the team token, not to a planner", async () => {
  const env = e2eEnv();
  const path = `/v1/chargeback?${windowQuery()}&group_by=team&team=${encodeURIComponent(env.otherTeam)}`;
  expect((await apiGet(path, env.teamToken)).status).toBe(403);
  const planner = await apiOk<ChargebackReport>(path, env.plannerToken);
  expect((planner.lines ?? []).length).toBeGreaterThan(0);
  // Unfiltered, the team token's lines are its own subtree's only.
  const own = await apiOk<ChargebackReport>(`/v1/chargeback?${windowQuery()}&group_by=team`, env.teamToken);
  expect((own.lines ?? []).map((l) => l.team)).not.toContain(env.otherTeam);
});

// A workload of the other team, as a planner sees it: its namespace, name and newest hour.
async function otherTeamWorkload(): Promise<{ namespace: string; workload: string; hour: string }> {
  const env = e2eEnv();
  const window = { start: env.start, end: env.end };
  const namespaces = await chargebackAt(window, { team: env.otherTeam }, env.plannerToken);
  const namespace = namespaces.lines?.find((l) => l.namespace)?.namespace;
  if (namespace === undefined) throw new Error(`${env.otherTeam}: no namespace with chargeback lines`);
  const workloads = await chargebackAt(window, { team: env.otherTeam, namespace }, env.plannerToken);
  const workload = workloads.lines?.find((l) => l.workload)?.workload ?? '';
  const hours = await apiOk<{ lines?: Array<{ start?: string }> }>(
    `/v1/chargeback?${windowQuery()}&group_by=team&resolution=hour&team=${encodeURIComponent(env.otherTeam)}`,
    env.plannerToken,
  );
  const hour = hours.lines?.at(-1)?.start;
  if (hour === undefined) throw new Error(`${env.otherTeam}: no hour with chargeback lines`);
  return { namespace, workload, hour };
}

test("the API refuses the other team's drill levels, exports and explanations to the team token", async () => {
  const env = e2eEnv();
  const { namespace, workload, hour } = await otherTeamWorkload();
  const window = { start: env.start, end: env.end };
  const refused = [
    `/v1/chargeback?${drillQuery(window, { team: env.otherTeam, namespace })}`,
    `/v1/chargeback?${windowQuery()}&group_by=team,workload&resolution=hour&team=${env.otherTeam}&namespace=${namespace}&workload=${encodeURIComponent(workload)}`,
    `/v1/chargeback/export?format=csv&${drillQuery(window, { team: env.otherTeam })}`,
    `/v1/chargeback/export?format=focus&${drillQuery(window, { team: env.otherTeam, namespace })}`,
    `/v1/chargeback/explain?team=${env.otherTeam}&hour=${hour}`,
  ];
  for (const path of refused) {
    expect((await apiGet(path, env.teamToken)).status, path).toBe(403);
    expect((await apiGet(path, env.plannerToken)).status, path).toBe(200);
  }
  // Filtered by the other team's namespace alone, the team token's export holds none of its lines.
  const csv = await apiGet<string>(`/v1/chargeback/export?format=csv&${windowQuery()}&group_by=team,namespace&namespace=${namespace}`, env.teamToken);
  expect(csv.status).toBe(200);
  expect(csv.body).not.toContain(env.otherTeam);
});

test("a chargeback drill URL into the other team's workload shows no figure and asks for nothing", async () => {
  const env = e2eEnv();
  const { namespace, workload } = await otherTeamWorkload();
  const { page, errors } = await newPage(browser.context, env.teamToken);
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/chargeback')) asked.push(url.pathname + url.search);
  });
  const query = new URLSearchParams({ start: env.start, end: env.end, team: env.otherTeam, namespace, explain: workload });
  await go(page, `/chargeback?${query.toString()}`);
  await page.getByTestId('outside-scope').waitFor();
  await page.waitForLoadState('networkidle');
  expect(await page.getByTestId('explain-panel').count()).toBe(0);
  expect(await page.locator('[data-testid^="chargeback-row-"], [data-testid="chargeback-total"]').count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Export CSV' }).isDisabled()).toBe(true);
  expect(await page.getByRole('button', { name: 'Export FOCUS' }).isDisabled()).toBe(true);
  expect(asked.filter((url) => url.includes(env.otherTeam))).toEqual([]);
  await screenshot(page, 'team-chargeback-other-team-drill');
  expect(errors).toEqual([]);
  await page.close();
});

describe.each(PAGES)('the %s page as a team', (name) => {
  test("says whose data it shows and shows none of the other team's, even asked by URL", async () => {
    const env = e2eEnv();
    const { page } = await newPage(browser.context, env.teamToken);
    await go(page, `/${name}?${windowQuery()}&team=${encodeURIComponent(env.otherTeam)}`);
    await page.waitForLoadState('networkidle');
    const text = await page.locator('body').innerText();
    expect(text).toContain(env.team);
    // The other team may be named in a refusal, but never beside figures: no
    // table row or chart legend of the page carries its name.
    expect(await page.locator('tr, [role="row"]').filter({ hasText: env.otherTeam }).count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `team-${name}`);
    await page.close();
  });
});
