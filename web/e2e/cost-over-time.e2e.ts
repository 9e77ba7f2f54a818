// The Chargeback page's cost over time: its series add up to the API's total
// for the window, each series is the API's sum for its group, the stacking
// and resolution chosen go into the URL and survive a reload, and a team
// token's chart holds only its own teams.

import type { Page } from 'playwright-core';
import { apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { int64, type ChargebackReport } from './support/chargeback';
import { e2eEnv } from './support/env';
import { figure, go, newPage, screenshot, seriousAccessibilityViolations, shownWindow } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// The API's total per group of `field` over the window (the page's drill
// filters included), as the chart's series should show them.
async function apiGroupTotals(
  window: { start: string; end: string },
  field: string,
  token: string,
  resolution: string,
): Promise<{ total: string; groups: Map<string, bigint> }> {
  const query = new URLSearchParams({ ...window, group_by: field, resolution });
  const report = await apiOk<ChargebackReport>(`/v1/chargeback?${query.toString()}`, token);
  const key = field === 'line_kind' ? 'lineKind' : field;
  const groups = new Map<string, bigint>();
  for (const line of report.lines ?? []) {
    const name = (line as Record<string, unknown>)[key] as string | undefined;
    groups.set(name || '(none)', (groups.get(name || '(none)') ?? 0n) + int64(line.totalCostMicro));
  }
  return { total: report.totalCostMicro ?? '0', groups };
}

// The series' names and exact totals as the page lists them under the chart.
async function shownSeries(page: Page): Promise<Map<string, bigint>> {
  const rows = page.getByTestId('cost-series').locator('li');
  const shown = new Map<string, bigint>();
  for (let i = 0; i < (await rows.count()); i += 1) {
    const row = rows.nth(i);
    const name = await row.locator('.series-name').innerText();
    shown.set(name, BigInt((await row.locator('[data-value]').getAttribute('data-value')) ?? 'x'));
  }
  return shown;
}

async function expectSeriesAreTheApis(page: Page, field: string, resolution: string, token: string): Promise<void> {
  await page.getByTestId('cost-over-time-chart').and(page.locator('[data-ready="true"]')).waitFor({ timeout: 20_000 });
  const api = await apiGroupTotals(await shownWindow(page), field, token, resolution);
  await expect.poll(() => figure(page, 'cost-over-time-total'), { timeout: 15_000 }).toBe(api.total);
  await expect.poll(async () => [...(await shownSeries(page)).entries()].sort(), { timeout: 15_000 }).toEqual(
    [...api.groups.entries()].sort(),
  );
}

test("the cost over time is the API's, by any grouping and resolution, kept in the URL", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/chargeback?range=30d');
  await expectSeriesAreTheApis(page, 'team', 'day', env.plannerToken);
  // The chart's total is the page's total.
  expect(await figure(page, 'cost-over-time-total')).toBe(await figure(page, 'chargeback-total'));

  await page.getByTestId('cost-stack').selectOption('model');
  await page.waitForURL((url) => url.searchParams.get('stack') === 'model');
  await expectSeriesAreTheApis(page, 'model', 'day', env.plannerToken);
  await page.getByTestId('cost-resolution').selectOption('month');
  await page.waitForURL((url) => url.searchParams.get('res') === 'month');
  // The box follows the URL (see charts.e2e.ts): click, then wait for both.
  await page.getByRole('checkbox', { name: 'Cumulative' }).click();
  await page.waitForURL((url) => url.searchParams.get('cumulative') === '1');
  await expect.poll(() => page.getByRole('checkbox', { name: 'Cumulative' }).isChecked()).toBe(true);
  await page.reload();
  expect(await page.getByTestId('cost-stack').inputValue()).toBe('model');
  expect(await page.getByTestId('cost-resolution').inputValue()).toBe('month');
  expect(await page.getByRole('checkbox', { name: 'Cumulative' }).isChecked()).toBe(true);
  await expectSeriesAreTheApis(page, 'model', 'month', env.plannerToken);

  await page.getByTestId('cost-stack').selectOption('line_kind');
  await expectSeriesAreTheApis(page, 'line_kind', 'month', env.plannerToken);
  expect([...(await shownSeries(page)).keys()]).toContain('idle');
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await screenshot(page, 'chargeback-cost-over-time');
  expect(errors).toEqual([]);
  await page.close();
});

test("a team token's cost over time holds only its own teams", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.teamToken);
  await go(page, '/chargeback?range=7d');
  await expectSeriesAreTheApis(page, 'team', 'day', env.teamToken);
  const teams = [...(await shownSeries(page)).keys()];
  expect(teams.length).toBeGreaterThan(0);
  expect(teams).not.toContain(env.otherTeam);
  const self = await apiOk<{ teams?: string[] }>('/v1/tokens/self', env.teamToken);
  for (const team of teams) expect(self.teams ?? []).toContain(team);
  expect(errors).toEqual([]);
  await page.close();
});

test("a model filter narrows the table and the chart to the API's figures for that model, kept in the URL", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/chargeback?range=30d');
  await figure(page, 'chargeback-total');
  const window = await shownWindow(page);
  const byModel = await apiGroupTotals(window, 'model', env.plannerToken, 'none');
  const model = [...byModel.groups.entries()].sort((a, b) => (a[1] < b[1] ? 1 : -1))[0]![0];
  await page.getByTestId('filter-model').selectOption(model);
  await page.waitForURL((url) => url.searchParams.get('model') === model);
  const query = new URLSearchParams({ ...window, group_by: 'team', resolution: 'none', model });
  const api = await apiOk<ChargebackReport>(`/v1/chargeback?${query.toString()}`, env.plannerToken);
  expect(api.totalCostMicro).toBe(String(byModel.groups.get(model)));
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(api.totalCostMicro);
  await expect.poll(() => figure(page, 'cost-over-time-total'), { timeout: 15_000 }).toBe(api.totalCostMicro);
  for (const line of api.lines ?? []) {
    expect(await figure(page, `chargeback-row-total-${line.team || '(none)'}`)).toBe(line.totalCostMicro ?? '0');
  }
  await page.reload();
  expect(await page.getByTestId('filter-model').inputValue()).toBe(model);
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(api.totalCostMicro);
  expect(errors).toEqual([]);
  await page.close();
});
