// Chargeback's drill-down team -> namespace -> workload: each level's
// figures are the API's for that level, the URL carries the drill so that
// it can be shared, and the Efficiency page's least efficient workloads lead
// to their chargeback line and its explanation.

import type { Page } from 'playwright-core';
import { apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import {
  chargebackAt,
  int64,
  readableWorkload,
  rowName,
  type ChargebackLine,
  type ChargebackReport,
  type DrillLevel,
} from './support/chargeback';
import { e2eEnv, windowQuery } from './support/env';
import { figure, go, newPage, screenshot } from './support/page';
import { everyPagesFigures, onEveryPage } from './support/table';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const window = () => ({ start: e2eEnv().start, end: e2eEnv().end });

interface Explanation {
  lines?: Array<{ line?: ChargebackLine }>;
}

// Every row's cost, held, used and idle figures and the total on screen are
// the API's lines for the level (waiting for the level's rows to replace
// the previous level's). A workload level has hundreds of rows: the
// figures are read in one pass over the page, not one call per figure.
async function expectLevelFigures(page: Page, level: DrillLevel, report: ChargebackReport): Promise<void> {
  const lines = report.lines ?? [];
  expect(lines.length, JSON.stringify(level)).toBeGreaterThan(0);
  await page.getByTestId(`chargeback-row-total-${rowName(lines[0] as ChargebackLine, level)}`).waitFor();
  expect(await figure(page, 'chargeback-total')).toBe(report.totalCostMicro ?? '0');
  const shown = await everyPagesFigures(page);
  const expected: string[][] = [];
  for (const line of lines) {
    const name = rowName(line, level);
    expected.push(
      [`chargeback-row-total-${name}`, line.totalCostMicro ?? '0'],
      [`chargeback-row-held-${name}`, line.heldMilliSeconds ?? '0'],
      [`chargeback-row-used-${name}`, line.usedMilliSeconds ?? '0'],
      [`chargeback-row-idle-${name}`, line.idleCostMicro ?? '0'],
    );
  }
  // Row order is the page's (by cost); each line's four figures, once each.
  const byName = (a: string[], b: string[]) => a.join('\u0000').localeCompare(b.join('\u0000'));
  expect(shown.sort(byName)).toEqual(expected.sort(byName));
}

// The line with the highest cost (the page's first row).
function costliest(report: ChargebackReport): ChargebackLine {
  const lines = [...(report.lines ?? [])];
  lines.sort((a, b) => {
    const d = int64(b.totalCostMicro) - int64(a.totalCostMicro);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  });
  const first = lines[0];
  if (first === undefined) throw new Error('no chargeback lines');
  return first;
}

// The totals the explanation panel should show for a workload: its newest
// hour in the window, then that hour's explanation of the workload's lines.
async function explainedTotals(team: string, namespace: string, workload: string): Promise<string[]> {
  const token = e2eEnv().plannerToken;
  const hours = new URLSearchParams({ ...window(), group_by: 'team,workload', resolution: 'hour', team, namespace, workload });
  const report = await apiOk<ChargebackReport>(`/v1/chargeback?${hours.toString()}`, token);
  const newest = [...(report.lines ?? [])].filter((l) => l.start && l.team).sort((a, b) => (b.start as string).localeCompare(a.start as string))[0];
  if (newest === undefined) throw new Error(`${namespace}/${workload}: no hour with chargeback lines`);
  const explanation = await apiOk<Explanation>(
    `/v1/chargeback/explain?${new URLSearchParams({ team: newest.team as string, hour: newest.start as string }).toString()}`,
    token,
  );
  const totals = (explanation.lines ?? [])
    .filter((l) => l.line?.namespace === namespace && l.line?.workload === workload)
    .map((l) => l.line?.totalCostMicro ?? '0');
  expect(totals.length, `${namespace}/${workload}: explained lines`).toBeGreaterThan(0);
  return totals;
}

async function expectExplanation(page: Page, team: string, namespace: string, workload: string): Promise<void> {
  const panel = page.getByTestId('explain-panel');
  await panel.waitFor();
  const shown = readableWorkload(workload, namespace, team);
  expect(await panel.getByRole('heading').first().innerText()).toBe(`Explanation of ${shown.name} ${shown.context}`);
  const expected = await explainedTotals(team, namespace, workload);
  await panel.getByTestId('explain-line-total').first().waitFor();
  const totals = await panel.getByTestId('explain-line-total').evaluateAll((els) => els.map((e) => e.getAttribute('data-value')));
  expect(totals).toEqual(expected);
}

const params = (page: Page) => new URL(page.url()).searchParams;

test("team -> namespace -> workload: each level's figures are the API's, and the URL carries the drill", async () => {
  const env = e2eEnv();
  const w = window();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/chargeback?${windowQuery()}`);
  await expectLevelFigures(page, {}, await chargebackAt(w, {}, env.plannerToken));

  const team = env.team;
  await page.getByTestId('chargeback-table').getByRole('button', { name: team, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('team') === team);
  const teamLevel = await chargebackAt(w, { team }, env.plannerToken);
  await expectLevelFigures(page, { team }, teamLevel);
  expect(params(page).get('start')).toBe(w.start);

  const namespace = costliest(teamLevel).namespace as string;
  await page.getByTestId('chargeback-table').getByRole('button', { name: namespace, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('namespace') === namespace);
  const namespaceLevel = await chargebackAt(w, { team, namespace }, env.plannerToken);
  await expectLevelFigures(page, { team, namespace }, namespaceLevel);

  const workload = costliest(namespaceLevel).workload as string;
  const row = page.getByTestId('chargeback-table').locator('tbody tr').filter({ has: page.getByTestId(`chargeback-row-total-${workload || '(none)'}`) });
  await row.getByRole('button', { name: 'Explain' }).click();
  await page.waitForURL((url) => url.searchParams.get('explain') === workload);
  await expectExplanation(page, team, namespace, workload);
  await screenshot(page, 'chargeback-drilled-explained');

  // The URL alone, opened in another tab, shows the same drill and explanation.
  const shared = page.url();
  expect(params(page).get('team')).toBe(team);
  const other = await newPage(browser.context, env.plannerToken);
  await other.page.goto(shared);
  await expectLevelFigures(other.page, { team, namespace }, namespaceLevel);
  await expectExplanation(other.page, team, namespace, workload);
  expect(other.errors).toEqual([]);
  await other.page.close();

  // The breadcrumb climbs back: the team's namespaces, then all teams.
  await page.getByRole('navigation', { name: 'Drill-down' }).getByRole('link', { name: team, exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('namespace') === null && url.searchParams.get('team') === team);
  await expectLevelFigures(page, { team }, teamLevel);
  await page.getByRole('link', { name: 'All teams' }).click();
  await page.waitForURL((url) => url.searchParams.get('team') === null);
  expect(await figure(page, 'chargeback-total')).toBe((await chargebackAt(w, {}, env.plannerToken)).totalCostMicro ?? '0');
  expect(errors).toEqual([]);
  await page.close();
});

// Whether the element's top edge is within the window, and the element is where focus is.
async function inViewAndFocused(page: Page, testId: string): Promise<{ inView: boolean; focused: boolean }> {
  return page.getByTestId(testId).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return {
      inView: box.top >= 0 && box.top < globalThis.innerHeight,
      focused: document.activeElement === element,
    };
  });
}

test('clicking Explain below the fold scrolls the explanation into view and moves focus to its heading', async () => {
  const env = e2eEnv();
  const w = window();
  const team = env.team;
  const namespace = costliest(await chargebackAt(w, { team }, env.plannerToken)).namespace as string;
  const namespaceLevel = await chargebackAt(w, { team, namespace }, env.plannerToken);
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/chargeback?${windowQuery()}&team=${encodeURIComponent(team)}&namespace=${encodeURIComponent(namespace)}`);
  await expectLevelFigures(page, { team, namespace }, namespaceLevel);
  // The panel opens below the table: only a table taller than the window puts it out of sight.
  const table = await page.getByTestId('chargeback-table').boundingBox();
  expect(table?.height ?? 0).toBeGreaterThan(page.viewportSize()?.height ?? 0);

  const rows = page.getByTestId('chargeback-table').locator('tbody tr');
  for (const row of [0, 1]) {
    await page.evaluate(() => globalThis.scrollTo(0, 0));
    const name = await rows.nth(row).locator('[data-testid^="chargeback-row-total-"]').getAttribute('data-testid');
    await rows.nth(row).getByRole('button', { name: 'Explain' }).click();
    await page.waitForURL((url) => `chargeback-row-total-${url.searchParams.get('explain') || '(none)'}` === name);
    // The router renders the new address in a transition: wait for the panel to be the clicked workload's.
    const workload = new URL(page.url()).searchParams.get('explain') ?? '';
    await page.getByTestId('explain-heading').filter({ hasText: readableWorkload(workload).name }).waitFor();
    await page.getByTestId('explain-panel').getByTestId('explain-line-total').first().waitFor();
    expect(await inViewAndFocused(page, 'explain-heading'), `Explain of row ${row + 1}`).toEqual({ inView: true, focused: true });
    if (row === 0) await screenshot(page, 'chargeback-explain-in-view', { fullPage: false });
  }
  expect(errors).toEqual([]);
  await page.close();
});

test('the least efficient workload leads to its chargeback line and its explanation', async () => {
  const env = e2eEnv();
  const w = window();
  const query = new URLSearchParams({ ...w, group_by: 'team,namespace,workload', resolution: 'none', line_kind: 'workload' });
  const workloads = await apiOk<ChargebackReport>(`/v1/chargeback?${query.toString()}`, env.plannerToken);
  const unused = (l: ChargebackLine) => {
    const u = int64(l.observedMilliSeconds) - int64(l.usedMilliSeconds);
    return u > 0n ? u : 0n;
  };
  const worst = [...(workloads.lines ?? [])].sort((a, b) => {
    const d = unused(b) - unused(a);
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  })[0];
  if (worst === undefined) throw new Error('no workload lines in the window');
  const [team, namespace, workload] = [worst.team ?? '', worst.namespace ?? '', worst.workload ?? ''];
  const key = `${team}/${namespace}/${workload}`;

  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/efficiency?${windowQuery()}`);
  const first = page.getByTestId('efficiency-workloads').locator('tbody tr').first();
  expect(await first.locator('[data-testid^="efficiency-workload-unused-"]').getAttribute('data-testid')).toBe(
    `efficiency-workload-unused-${key}`,
  );
  expect(await figure(page, `efficiency-workload-unused-${key}`)).toBe(String(unused(worst)));

  // Its chargeback line: the workload's row in its team and namespace, same device time.
  await first.getByRole('link', { name: readableWorkload(workload).name, exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/chargeback');
  expect(params(page).get('team')).toBe(team);
  expect(params(page).get('namespace')).toBe(namespace);
  expect(params(page).get('start')).toBe(w.start);
  const name = workload || '(none)';
  expect(await figure(page, `chargeback-row-held-${name}`)).toBe(worst.heldMilliSeconds ?? '0');
  expect(await figure(page, `chargeback-row-used-${name}`)).toBe(worst.usedMilliSeconds ?? '0');

  // Its explanation, from the same row of the Efficiency page.
  await page.goBack();
  await page.getByTestId('efficiency-workloads').locator('tbody tr').first().getByRole('link', { name: 'Explain' }).click();
  await page.waitForURL((url) => url.searchParams.get('explain') === workload);
  expect(params(page).get('team')).toBe(team);
  expect(params(page).get('namespace')).toBe(namespace);
  await expectExplanation(page, team, namespace, workload);
  expect(await figure(page, `chargeback-row-held-${name}`)).toBe(worst.heldMilliSeconds ?? '0');
  expect(errors).toEqual([]);
  await page.close();
});

test('workloads read as their names, with their kind and namespace beside them once, not team/namespace/Kind/name', async () => {
  const env = e2eEnv();
  const w = window();
  const { page, errors } = await newPage(browser.context, env.plannerToken);

  // The Efficiency page's least efficient workloads: name, then kind, namespace and a team that differs.
  await go(page, `/efficiency?${windowQuery()}`);
  const table = page.getByTestId('efficiency-workloads');
  await table.locator('[data-testid^="efficiency-workload-unused-"]').first().waitFor();
  const cells = await table.locator('tbody tr').evaluateAll((rows) =>
    rows.map((row) => ({
      key: (row.querySelector('[data-testid^="efficiency-workload-unused-"]')?.getAttribute('data-testid') ?? '').replace(
        'efficiency-workload-unused-',
        '',
      ),
      text: (row.querySelector('td') as HTMLElement | null)?.innerText ?? '',
      link: row.querySelector('td a')?.textContent ?? '',
    })),
  );
  expect(cells.length).toBeGreaterThan(0);
  for (const cell of cells) {
    const [team = '', namespace = '', ...rest] = cell.key.split('/');
    const shown = readableWorkload(rest.join('/'), namespace, team);
    expect(cell).toEqual({ key: cell.key, text: `${shown.name} ${shown.context}`, link: shown.name });
    expect(cell.text).not.toContain(`${namespace}/`);
  }

  // The Chargeback page's workload level: the breadcrumb names team and namespace, each row its name and kind.
  const team = env.team;
  const namespace = costliest(await chargebackAt(w, { team }, env.plannerToken)).namespace as string;
  const lines = (await chargebackAt(w, { team, namespace }, env.plannerToken)).lines ?? [];
  await go(page, `/chargeback?${windowQuery()}&team=${encodeURIComponent(team)}&namespace=${encodeURIComponent(namespace)}`);
  await page.getByTestId(`chargeback-row-total-${rowName(lines[0] as ChargebackLine, { team, namespace })}`).waitFor();
  const names = await onEveryPage(page, () =>
    page
      .getByTestId('chargeback-table')
      .locator('tbody tr td:first-child')
      .evaluateAll((tds) => tds.map((td) => (td as HTMLElement).innerText.trim())),
  );
  const expected = lines.map((line) => {
    const shown = readableWorkload(line.workload ?? '');
    return `${shown.name} ${shown.context} Explain`.replace(/ {2}/, ' ');
  });
  expect(names.sort()).toEqual(expected.sort());
  expect(errors).toEqual([]);
  await page.close();
});
