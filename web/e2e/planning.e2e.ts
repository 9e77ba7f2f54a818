// The Planning page over the stack's stored forecast (the optimizer's pass
// forecasts once it has charged the trace): the figures on screen are the
// API's for the same query, a scenario runs, is refused with its lines, is
// saved and opened again, and a team token sees only its own forecast.

import { readFileSync } from 'node:fs';
import type { Forecast, SavedScenario, ScenarioComparison, ScenarioList } from '../src/api/types.gen';
import { apiGet, apiOk, apiPost } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { e2eEnv } from './support/env';
import { figure, go, newPage, screenshot } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const exampleScenario = readFileSync(new URL('../../docs/examples/whatif-scenario.yaml', import.meta.url), 'utf8');
// A scenario run computes both sides over the whole fleet: minutes on a busy debug build.
const scenarioTimeout = 240_000;
const dayValue = (day: string | undefined) => day ?? 'none';

function forecastPath(flavor: string, team?: string): string {
  const params = new URLSearchParams({ flavor, horizon: '90d', what: 'held' });
  if (team !== undefined) params.set('team', team);
  return `/v1/forecast?${params.toString()}`;
}

// The data-value of every figure whose data-testid starts with `prefix`, by the rest of its name.
async function figuresByPrefix(page: import('playwright-core').Page, prefix: string): Promise<Record<string, string>> {
  return page.evaluate((p) => {
    const out: Record<string, string> = {};
    document.querySelectorAll(`[data-testid^="${p}"]`).forEach((element) => {
      out[(element.getAttribute('data-testid') ?? '').slice(p.length)] = element.getAttribute('data-value') ?? '';
    });
    return out;
  }, prefix);
}

test("a flavor's forecast and every flavor's exhaustion dates are the API's", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/planning');
  await page.getByTestId('planning-forecast-chart').and(page.locator('[data-ready="true"]')).waitFor({ timeout: 30_000 });
  const flavor = await page.getByTestId('planning-flavor').inputValue();
  const api = await apiOk<Forecast>(forecastPath(flavor), env.plannerToken);
  expect((api.forecast ?? []).length).toBeGreaterThan(0);
  expect(await figure(page, 'forecast-p50-end')).toBe(api.forecast?.at(-1)?.p50Milli ?? '0');
  expect(await figure(page, 'forecast-p90-end')).toBe(api.forecast?.at(-1)?.p90Milli ?? '0');
  expect(await figure(page, 'forecast-history-last')).toBe(api.history?.at(-1)?.milli ?? '0');
  expect(await figure(page, 'forecast-capacity-end')).toBe(api.capacityForecast?.at(-1)?.milli ?? '0');
  expect(await figure(page, 'forecast-exhaustion-p50')).toBe(dayValue(api.exhaustion?.p50Day));
  expect(await figure(page, 'forecast-exhaustion-p90')).toBe(dayValue(api.exhaustion?.p90Day));
  expect(await page.getByTestId('forecast-model').innerText()).toBe(api.model);

  // Every flavor's row, once each has answered.
  const table = page.getByTestId('planning-exhaustion-table');
  await page.waitForFunction(() => !document.querySelector('[data-testid="planning-exhaustion-table"]')?.textContent?.includes('Loading'));
  const p50 = await figuresByPrefix(page, 'planning-exhaustion-p50-');
  const p90 = await figuresByPrefix(page, 'planning-exhaustion-p90-');
  expect(Object.keys(p50)).toContain(flavor);
  for (const [name, value] of Object.entries(p50)) {
    const answer = await apiOk<Forecast>(forecastPath(name), env.plannerToken);
    expect({ name, p50: value, p90: p90[name] }).toEqual({
      name,
      p50: dayValue(answer.exhaustion?.p50Day),
      p90: dayValue(answer.exhaustion?.p90Day),
    });
  }
  expect(await table.count()).toBe(1);
  await screenshot(page, 'planner-planning-forecast');
  expect(errors).toEqual([]);
  await page.close();
});

test('a scenario runs against the baseline with the API’s bill, is refused with its lines, saved and opened again', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/planning');
  const editor = page.getByTestId('scenario-yaml');
  expect(await editor.inputValue()).toBe(exampleScenario);

  // Run: the totals, a team's bill and the flavors' exhaustion are the API's for the same document.
  const api = await apiPost<ScenarioComparison>('/v1/scenarios/run', { scenarioYaml: exampleScenario }, env.plannerToken);
  expect(api.status).toBe(200);
  await page.getByRole('button', { name: 'Run against the baseline' }).click();
  await page.getByTestId('scenario-comparison').waitFor({ timeout: scenarioTimeout });
  const expected = api.body;
  expect(await figure(page, 'scenario-total-baseline')).toBe(expected.baseline?.totalMicro ?? '0');
  expect(await figure(page, 'scenario-total-scenario')).toBe(expected.scenario?.totalMicro ?? '0');
  expect(await figure(page, 'scenario-idle-scenario')).toBe(expected.scenario?.idleMicro ?? '0');
  const bills = await figuresByPrefix(page, 'scenario-bill-scenario-');
  expect(bills).toEqual(Object.fromEntries((expected.scenario?.bills ?? []).map((b) => [b.team, b.micro ?? '0'])));
  const exhausted = await figuresByPrefix(page, 'scenario-exhaustion-p50-scenario-');
  expect(exhausted).toEqual(Object.fromEntries((expected.scenario?.flavors ?? []).map((f) => [f.flavor, dayValue(f.exhaustedP50)])));
  await screenshot(page, 'planner-planning-scenario');

  // Refused: the API's problem, with its line.
  const bad = 'version: 1\nbudget: 3\n';
  const refusal = await apiPost<{ message?: string }>('/v1/scenarios/run', { scenarioYaml: bad }, env.plannerToken);
  expect(refusal.status).toBe(400);
  await editor.fill(bad);
  await page.getByRole('button', { name: 'Run against the baseline' }).click();
  const problem = page.getByTestId('scenario-problem').first();
  await problem.waitFor();
  expect(await problem.getAttribute('data-line')).toBe('2');
  expect(refusal.body.message).toMatch(/^scenario:2:1: budget: /);
  expect(await problem.innerText()).toContain(refusal.body.message?.replace(/^scenario:2:1: /, '') ?? '?');

  // Saved: listed by the API with the page's result, and opened again from its link.
  await page.getByRole('button', { name: 'Start from the example' }).click();
  const name = `e2e ${new Date().toISOString()}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('button', { name: 'Save' }).click();
  const savedText = await page.getByTestId('scenario-saved').innerText({ timeout: scenarioTimeout });
  const id = /scenario (\d+)/.exec(savedText)?.[1];
  expect(id).toBeDefined();
  const list = await apiOk<ScenarioList>('/v1/scenarios', env.plannerToken);
  expect((list.scenarios ?? []).find((s) => s.id === id)?.name).toBe(name);
  const stored = await apiOk<SavedScenario>(`/v1/scenarios/get?id=${id}`, env.plannerToken);
  expect(stored.scenarioYaml).toBe(exampleScenario);
  expect(await figure(page, 'scenario-total-scenario')).toBe(stored.result?.scenario?.totalMicro ?? '0');
  await page.getByTestId(`saved-scenario-${id}`).waitFor();

  const reopened = await newPage(browser.context, env.plannerToken);
  await go(reopened.page, `/planning?scenario=${id}`);
  await reopened.page.getByTestId('scenario-comparison').waitFor({ timeout: 30_000 });
  expect(await reopened.page.getByTestId('scenario-yaml').inputValue()).toBe(exampleScenario);
  expect(await figure(reopened.page, 'scenario-total-baseline')).toBe(stored.result?.baseline?.totalMicro ?? '0');
  expect(await reopened.page.getByTestId('scenario-shown').innerText()).toContain(`saved scenario ${id}`);
  expect(reopened.errors).toEqual([]);
  await reopened.page.close();
  // The refused run's 400 is the page's own message, not a console error of the app.
  expect(errors.filter((e) => !e.includes('400'))).toEqual([]);
  await page.close();
}, 4 * scenarioTimeout);

test("a team token sees its own forecast only: not the flavor's total, another team's or a scenario", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.teamToken);
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) asked.push(url.pathname + url.search);
  });
  await go(page, '/planning');
  await page.getByTestId('planning-scope').waitFor();
  await page.getByTestId('planning-forecast-chart').waitFor({ timeout: 30_000 });
  const flavor = await page.getByTestId('planning-flavor').inputValue();
  expect(await page.getByTestId('planning-team').inputValue()).toBe(env.team);
  const own = await apiOk<Forecast>(forecastPath(flavor, env.team), env.teamToken);
  expect(await figure(page, 'forecast-p50-end')).toBe(own.forecast?.at(-1)?.p50Milli ?? '0');
  expect(own.exhaustion).toBeUndefined();
  expect(await page.getByTestId('forecast-exhaustion-p50').count()).toBe(0);
  expect(await page.getByTestId('scenario-yaml').count()).toBe(0);

  // The API refuses the flavor's total, the other team and the scenarios to the team token.
  expect((await apiGet(forecastPath(flavor), env.teamToken)).status).toBe(403);
  expect((await apiGet(forecastPath(flavor, env.otherTeam), env.teamToken)).status).toBe(403);
  expect((await apiGet('/v1/scenarios', env.teamToken)).status).toBe(403);
  expect((await apiPost('/v1/scenarios/run', { scenarioYaml: exampleScenario }, env.teamToken)).status).toBe(403);

  // Asked by URL, the other team's forecast is refused on the page without a request naming it.
  await go(page, `/planning?flavor=${encodeURIComponent(flavor)}&team=${encodeURIComponent(env.otherTeam)}`);
  await page.getByTestId('outside-scope').waitFor();
  await page.waitForLoadState('networkidle');
  expect(await page.getByTestId('planning-forecast-chart').count()).toBe(0);
  expect(asked.filter((url) => url.includes(env.otherTeam))).toEqual([]);
  expect(asked.filter((url) => url.startsWith('/v1/scenario'))).toEqual([]);
  await screenshot(page, 'team-planning-other-team');
  expect(errors).toEqual([]);
  await page.close();
});
