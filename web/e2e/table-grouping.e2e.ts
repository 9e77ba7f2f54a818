// The Chargeback page's table grouped by a field other than the drill's
// (`table=`): every row is the API's sum for its group under the page's
// window and filters, the table's total is the chart's and the API's to the
// micro-unit, the grouping survives a reload, and a team token's rows are
// its own teams'.

import type { Page } from 'playwright-core';
import { apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { type ChargebackLine, type ChargebackReport } from './support/chargeback';
import { e2eEnv } from './support/env';
import { figure, go, newPage, screenshot, seriousAccessibilityViolations, shownWindow } from './support/page';
import { everyPagesFigures } from './support/table';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

type Field = 'team' | 'namespace' | 'workload' | 'model' | 'cluster' | 'line_kind';

function nameOf(line: ChargebackLine, field: Field): string {
  const value = field === 'line_kind' ? line.lineKind : line[field];
  return value || '(none)';
}

// The API's answer for the table at a grouping, under the page's window and `filters`.
async function apiTable(page: Page, field: Field, token: string, filters: Record<string, string> = {}): Promise<ChargebackReport> {
  const query = new URLSearchParams({ ...(await shownWindow(page)), group_by: field, resolution: 'none', ...filters });
  return apiOk<ChargebackReport>(`/v1/chargeback?${query.toString()}`, token);
}

// Every row's cost, held, used and idle figures on every page of the table
// are the API's line of its group, and the total on screen is the API's.
async function expectTableIsTheApis(page: Page, field: Field, report: ChargebackReport): Promise<void> {
  const lines = report.lines ?? [];
  expect(lines.length, field).toBeGreaterThan(0);
  await page.getByTestId(`chargeback-row-total-${nameOf(lines[0] as ChargebackLine, field)}`).waitFor({ timeout: 20_000 });
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(report.totalCostMicro ?? '0');
  const expected = lines.flatMap((line) => {
    const name = nameOf(line, field);
    return [
      [`chargeback-row-total-${name}`, line.totalCostMicro ?? '0'],
      [`chargeback-row-held-${name}`, line.heldMilliSeconds ?? '0'],
      [`chargeback-row-used-${name}`, line.usedMilliSeconds ?? '0'],
      [`chargeback-row-idle-${name}`, line.idleCostMicro ?? '0'],
    ];
  });
  const byName = (a: string[], b: string[]) => a.join('\u0000').localeCompare(b.join('\u0000'));
  expect((await everyPagesFigures(page)).sort(byName)).toEqual(expected.sort(byName));
  // The rows add up to the total: nothing is left out of the table.
  expect(lines.reduce((sum, line) => sum + BigInt(line.totalCostMicro ?? '0'), 0n)).toBe(BigInt(report.totalCostMicro ?? '0'));
}

const chartTotal = async (page: Page) => {
  await page.getByTestId('cost-over-time-chart').and(page.locator('[data-ready="true"]')).waitFor({ timeout: 20_000 });
  return figure(page, 'cost-over-time-total');
};

test("the table grouped by model, cluster, line kind or workload is the API's, its total the chart's, kept in the URL", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/chargeback?range=30d');
  await figure(page, 'chargeback-total');

  await page.getByTestId('table-group-by').selectOption('model');
  await page.waitForURL((url) => url.searchParams.get('table') === 'model');
  const byModel = await apiTable(page, 'model', env.plannerToken);
  await expectTableIsTheApis(page, 'model', byModel);
  expect(await chartTotal(page)).toBe(byModel.totalCostMicro);

  // Sorted by cost, smallest first, and searched: the URL keeps both with the grouping.
  const cost = page.getByTestId('chargeback-table').getByRole('columnheader', { name: /Cost/ });
  await cost.getByRole('button').click();
  await cost.getByRole('button').click();
  await page.waitForURL((url) => url.searchParams.get('sort') === 'total:asc');
  await page.reload();
  expect(await page.getByTestId('table-group-by').inputValue()).toBe('model');
  await expectTableIsTheApis(page, 'model', byModel);
  const firstRow = await page.getByTestId('chargeback-table').locator('tbody tr').first().locator('[data-testid^="chargeback-row-total-"]');
  const smallest = (byModel.lines ?? []).reduce((a, b) => (BigInt(a.totalCostMicro ?? '0') <= BigInt(b.totalCostMicro ?? '0') ? a : b));
  expect(await firstRow.getAttribute('data-value')).toBe(smallest.totalCostMicro ?? '0');

  // Under a cluster filter, by line kind: the idle capacity is a row of its own.
  // A cluster the filter offers: shared and fixed lines have none.
  const clusters = ((await apiTable(page, 'cluster', env.plannerToken)).lines ?? []).map((line) => line.cluster ?? '');
  const cluster = clusters.find(Boolean) ?? '';
  await page.getByTestId('filter-cluster').selectOption(cluster);
  await page.getByTestId('table-group-by').selectOption('line_kind');
  await page.waitForURL((url) => url.searchParams.get('table') === 'line_kind' && url.searchParams.get('cluster') === cluster);
  const byKind = await apiTable(page, 'line_kind', env.plannerToken, { cluster });
  await expectTableIsTheApis(page, 'line_kind', byKind);
  expect((byKind.lines ?? []).map((line) => line.lineKind)).toContain('idle');
  expect(await chartTotal(page)).toBe(byKind.totalCostMicro);
  await page.getByTestId('filter-cluster').selectOption('');

  // By workload: hundreds of rows over several pages, each the API's.
  await page.getByTestId('table-group-by').selectOption('workload');
  await page.waitForURL((url) => url.searchParams.get('table') === 'workload' && !url.searchParams.has('cluster'));
  await expectTableIsTheApis(page, 'workload', await apiTable(page, 'workload', env.plannerToken));
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await screenshot(page, 'chargeback-table-by-workload');

  // Back to the drill: the teams again.
  await page.getByTestId('table-group-by').selectOption('');
  await page.waitForURL((url) => !url.searchParams.has('table'));
  await expectTableIsTheApis(page, 'team', await apiTable(page, 'team', env.plannerToken));
  expect(errors).toEqual([]);
  await page.close();
});

test("a team token's table grouped by team or model holds its own teams' lines only", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.teamToken);
  await go(page, '/chargeback?range=30d&table=team');
  const self = await apiOk<{ teams?: string[] }>('/v1/tokens/self', env.teamToken);
  const byTeam = await apiTable(page, 'team', env.teamToken);
  await expectTableIsTheApis(page, 'team', byTeam);
  const teams = (byTeam.lines ?? []).map((line) => nameOf(line, 'team'));
  expect(teams).not.toContain(env.otherTeam);
  for (const team of teams) expect(self.teams ?? []).toContain(team);

  await page.getByTestId('table-group-by').selectOption('model');
  await page.waitForURL((url) => url.searchParams.get('table') === 'model');
  const byModel = await apiTable(page, 'model', env.teamToken);
  await expectTableIsTheApis(page, 'model', byModel);
  // The same lines summed another way: the team's total either way.
  expect(byModel.totalCostMicro).toBe(byTeam.totalCostMicro);
  await screenshot(page, 'chargeback-table-by-model-team');
  expect(errors).toEqual([]);
  await page.close();
});
