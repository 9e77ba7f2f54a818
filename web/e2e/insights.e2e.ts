// The Insights page over the demo data's window: every figure of its four
// sections (top waste, top savings, why spend changed, budgets) equal to
// GET /v1/insights/waste|rightsizing|changes|budgets for the same query; the
// team and the range kept in the URL through a reload; a team token's page
// asks only for its own team, never the fleet, and a URL naming another team
// asks for nothing; axe clean; screenshots of each.

import type { Page } from 'playwright-core';
import type {
  BudgetReport,
  RightsizingReport,
  SpendChangeReport,
  WasteReport,
} from '../src/api/types.gen';
import { apiGet, apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { e2eEnv, windowQuery } from './support/env';
import { figure, go, newPage, screenshot, seriousAccessibilityViolations, shownWindow } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// proto3 JSON leaves a zero out.
const int64 = (value: string | undefined) => value ?? '0';
const workloadKey = (w: { team?: string; namespace?: string; workload?: string }) =>
  `${w.team ?? ''}/${w.namespace ?? ''}/${w.workload ?? ''}`;
const teamQuery = (team: string | null) => (team === null ? '' : `&team=${encodeURIComponent(team)}`);

interface Window {
  start: string;
  end: string;
}
const windowOf = (w: Window) => `start=${encodeURIComponent(w.start)}&end=${encodeURIComponent(w.end)}`;

// The four answers the page's sections show, for `team` (null: the fleet).
async function insightsApi(token: string, window: Window, team: string | null) {
  const scope = teamQuery(team);
  return {
    waste: await apiOk<WasteReport>(`/v1/insights/waste?${windowOf(window)}${scope}&limit=20`, token),
    savings: await apiOk<RightsizingReport>(`/v1/insights/rightsizing?limit=20${scope}`, token),
    change: await apiOk<SpendChangeReport>(`/v1/insights/changes?${windowOf(window)}${scope}&top=5`, token),
    budgets: await apiOk<BudgetReport>(`/v1/insights/budgets?${scope.slice(1)}`, token),
  };
}

type Answers = Awaited<ReturnType<typeof insightsApi>>;

async function expectWasteEqual(page: Page, waste: WasteReport, team: string | null): Promise<void> {
  await expect.poll(() => figure(page, 'insights-waste-cost', 30_000), { timeout: 30_000 }).toBe(int64(waste.wastedCostMicro));
  expect(await figure(page, 'insights-waste-time')).toBe(int64(waste.wastedMilliSeconds));
  expect(await figure(page, 'insights-waste-unknown')).toBe(int64(waste.unknownMilliSeconds));
  const score = waste.efficiency?.find((e) => (e.team ?? '') === (team ?? ''));
  const scoreShown = await figure(page, 'insights-efficiency');
  if (score === undefined) expect(scoreShown).toBe('none');
  else if (int64(score.observedMilliSeconds) === '0') expect(scoreShown).toBe('unknown');
  else expect(scoreShown).toBe(String(score.score ?? 0));
  const workloads = waste.workloads ?? [];
  if (workloads.length === 0) {
    await page.getByTestId('insights-waste-empty').waitFor();
    return;
  }
  // The rows in the API's order (the most wasted first), each figure its own.
  const shown = await page.getByTestId('insights-waste-table').locator('tbody tr [data-testid^="insights-waste-row-cost-"]').evaluateAll(
    (cells) => cells.map((c) => [c.getAttribute('data-testid'), c.getAttribute('data-value')]),
  );
  expect(shown).toEqual(workloads.map((w) => [`insights-waste-row-cost-${workloadKey(w)}`, int64(w.wastedCostMicro)]));
  for (const w of workloads) {
    expect(await figure(page, `insights-waste-row-time-${workloadKey(w)}`)).toBe(int64(w.wastedMilliSeconds));
    expect(await figure(page, `insights-waste-row-runs-${workloadKey(w)}`)).toBe(String(w.runCount ?? 0));
  }
  const sum = workloads.reduce((total, w) => total + BigInt(int64(w.wastedCostMicro)), 0n);
  // Under the limit, the workloads are all of them: their waste is the total.
  if (workloads.length < 20) expect(String(sum)).toBe(int64(waste.wastedCostMicro));
}

async function expectSavingsEqual(page: Page, savings: RightsizingReport): Promise<void> {
  expect(await figure(page, 'insights-savings-total', 30_000)).toBe(int64(savings.savingsMicroPerMonth));
  const recommendations = savings.recommendations ?? [];
  if (recommendations.length === 0) {
    await page.getByTestId('insights-savings-empty').waitFor();
    return;
  }
  const shown = await page.getByTestId('insights-savings-table').locator('tbody tr [data-testid^="insights-saving-"]').evaluateAll(
    (cells) => cells.map((c) => c.getAttribute('data-value')),
  );
  const amounts = recommendations.map((r) => BigInt(int64(r.savingsMicroPerMonth)));
  // The largest saving a month first, every one of them the API's.
  expect(shown).toEqual([...amounts].sort((a, b) => (b > a ? 1 : b < a ? -1 : 0)).map(String));
  for (const r of recommendations) {
    const key = `${workloadKey(r)}/${r.kind ?? ''}`;
    expect(await figure(page, `insights-saving-${key}`)).toBe(int64(r.savingsMicroPerMonth));
    expect(BigInt(int64(r.savingsMicroPerMonth)) > 0n).toBe(true);
  }
}

async function expectChangeEqual(page: Page, change: SpendChangeReport): Promise<void> {
  expect(await figure(page, 'insights-change-previous', 30_000)).toBe(int64(change.previousCostMicro));
  expect(await figure(page, 'insights-change-current')).toBe(int64(change.currentCostMicro));
  expect(await figure(page, 'insights-change-total')).toBe(int64(change.changeMicro));
  expect(await page.getByTestId('insights-change-mismatch').count()).toBe(0);
  // The waterfall's steps: previous, each driver, current, with the API's figures.
  const steps = await page.getByTestId('insights-waterfall').locator('g[data-step]').evaluateAll((groups) =>
    groups.map((g) => [g.getAttribute('data-step'), g.getAttribute('data-value')]),
  );
  expect(steps).toEqual([
    ['previous', int64(change.previousCostMicro)],
    ...(change.drivers ?? []).map((d) => [d.name ?? '', int64(d.changeMicro)]),
    ['current', int64(change.currentCostMicro)],
  ]);
  for (const d of change.drivers ?? []) {
    expect(await figure(page, `insights-driver-${d.name ?? ''}`)).toBe(int64(d.changeMicro));
    for (const [i, c] of (d.top ?? []).entries()) {
      expect(await figure(page, `insights-driver-${d.name ?? ''}-top-${i}`)).toBe(int64(c.changeMicro));
    }
  }
}

async function expectBudgetsEqual(page: Page, report: BudgetReport): Promise<void> {
  const budgets = report.budgets ?? [];
  if (budgets.length === 0) {
    await page.getByTestId('insights-budgets-empty').waitFor({ timeout: 30_000 });
    return;
  }
  for (const b of budgets) {
    const team = b.team ?? '';
    expect(await figure(page, `insights-budget-amount-${team}`, 30_000)).toBe(int64(b.amountMicro));
    expect(await figure(page, `insights-budget-spent-${team}`)).toBe(int64(b.spentMicro));
    expect(await figure(page, `insights-budget-projected-${team}`)).toBe(int64(b.projectedMicro));
    expect(await figure(page, `insights-budget-status-${team}`)).toBe(b.status ?? '');
  }
}

async function expectPageEqual(page: Page, api: Answers, team: string | null): Promise<void> {
  await expectWasteEqual(page, api.waste, team);
  await expectSavingsEqual(page, api.savings);
  await expectChangeEqual(page, api.change);
  await expectBudgetsEqual(page, api.budgets);
  // No section failed.
  expect(await page.getByTestId('error-message').allInnerTexts()).toEqual([]);
}

test('a planner sees the fleet’s waste, savings, change of spend and budgets as the API gives them', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/insights?${windowQuery()}`);
  const api = await insightsApi(env.plannerToken, env, null);
  await expectPageEqual(page, api, null);

  // The most wasteful workload's runs open on expanding it, each the API's.
  const top = api.waste.workloads?.[0];
  if (top !== undefined) {
    await page.getByTestId(`insights-waste-row-runs-${workloadKey(top)}`).click();
    await page.getByTestId('insights-runs-table').waitFor();
    for (const [i, run] of (top.runs ?? []).entries()) {
      expect(await figure(page, `insights-run-cost-${i}`)).toBe(int64(run.wastedCostMicro));
    }
  }
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await screenshot(page, 'insights-fleet');
  expect(errors).toEqual([]);
  await page.close();
});

test('the team and the range chosen are in the URL, survive a reload and show the API’s figures for them', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/insights?${windowQuery()}`);
  await page.getByTestId('insights-team').selectOption(env.team);
  await page.waitForURL((url) => url.searchParams.get('team') === env.team);
  await page.getByRole('button', { name: 'Last 30 days' }).click();
  await page.waitForURL((url) => url.searchParams.get('range') === '30d');
  await page.reload();
  const url = new URL(page.url());
  expect(url.searchParams.get('team')).toBe(env.team);
  expect(url.searchParams.get('range')).toBe('30d');
  expect(await page.getByTestId('insights-team').inputValue()).toBe(env.team);
  const window = await shownWindow(page);
  const api = await insightsApi(env.plannerToken, window, env.team);
  await expectPageEqual(page, api, env.team);
  expect(await page.getByText(`Efficiency of team ${env.team}`).count()).toBe(1);
  await screenshot(page, 'insights-team-30d');
  expect(errors).toEqual([]);
  await page.close();
});

test('a team token sees its own team’s insights, never the fleet’s; another team in the URL asks for nothing', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.teamToken);
  const asked: URL[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/insights/')) asked.push(url);
  });
  await go(page, `/insights?${windowQuery()}`);
  const api = await insightsApi(env.teamToken, env, env.team);
  await expectPageEqual(page, api, env.team);
  expect(await page.getByText(`Efficiency of team ${env.team}`).count()).toBe(1);
  expect(await page.getByTestId('insights-team').locator('option[value=""]').count()).toBe(0);
  expect(asked.length).toBeGreaterThanOrEqual(4);
  expect(asked.filter((u) => u.searchParams.get('team') !== env.team)).toEqual([]);
  // What the page shows is within the token's teams.
  const teams = new Set((await apiOk<{ teams?: string[] }>('/v1/tokens/self', env.teamToken)).teams ?? []);
  for (const w of api.waste.workloads ?? []) expect(teams.has(w.team ?? '')).toBe(true);
  for (const b of api.budgets.budgets ?? []) expect(teams.has(b.team ?? '')).toBe(true);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await screenshot(page, 'insights-team-token');

  // The API refuses it another team; the page does not ask.
  expect((await apiGet(`/v1/insights/waste?${windowQuery()}&team=${env.otherTeam}`, env.teamToken)).status).toBe(403);
  asked.length = 0;
  await go(page, `/insights?${windowQuery()}&team=${encodeURIComponent(env.otherTeam)}`);
  await page.getByTestId('outside-scope').waitFor({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);
  expect(errors).toEqual([]);
  await page.close();
});
