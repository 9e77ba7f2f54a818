// The files the dashboard downloads are the API's, row for row and to the
// micro-unit: the Chargeback page's CSV and FOCUS exports of what is on
// screen (at the top level and drilled into a team, for a planner and a
// team token), and the Recommendations page's Kueue and Volcano manifests.

import { apiGet } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import {
  chargebackAt,
  drillQuery,
  int64,
  microDeviceHours,
  rowName,
  type ChargebackLine,
  type ChargebackReport,
  type DrillLevel,
} from './support/chargeback';
import { microUnits, parseCsv } from './support/csv';
import { downloadBy } from './support/download';
import { e2eEnv } from './support/env';
import { figure, go, newPage } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const window = () => ({ start: e2eEnv().start, end: e2eEnv().end });

async function apiText(path: string, token: string): Promise<string> {
  const answer = await apiGet<string>(path, token);
  if (answer.status !== 200) throw new Error(`GET ${path}: HTTP ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

// The CSV export's rows against the report's lines: same order, same names,
// every amount exact, device-hours as the API's milli-device-seconds rounded.
function expectCsvRowsEqualLines(text: string, report: ChargebackReport): void {
  const { header, rows } = parseCsv(text);
  expect(header).toEqual(expect.arrayContaining(['team', 'namespace', 'workload', 'total_cost', 'held_device_hours']));
  const lines = report.lines ?? [];
  expect(rows.length).toBe(lines.length);
  let sum = 0n;
  rows.forEach((row, i) => {
    const line = lines[i] as ChargebackLine;
    const where = `CSV row ${i + 1}`;
    expect(row.team, where).toBe(line.team ?? '');
    expect(row.namespace, where).toBe(line.namespace ?? '');
    expect(row.workload, where).toBe(line.workload ?? '');
    expect(microUnits(row.direct_cost as string), where).toBe(int64(line.directCostMicro));
    expect(microUnits(row.idle_cost as string), where).toBe(int64(line.idleCostMicro));
    expect(microUnits(row.shared_cost as string), where).toBe(int64(line.sharedCostMicro));
    expect(microUnits(row.total_cost as string), where).toBe(int64(line.totalCostMicro));
    expect(microUnits(row.held_device_hours as string), where).toBe(microDeviceHours(line.heldMilliSeconds));
    expect(microUnits(row.used_device_hours as string), where).toBe(microDeviceHours(line.usedMilliSeconds));
    expect(row.currency, where).toBe(report.currency);
    sum += microUnits(row.total_cost as string);
  });
  expect(sum).toBe(int64(report.totalCostMicro));
}

// The FOCUS export's rows against the report's lines: BilledCost is the
// line's total and its parts add up to it; the team is the sub-account.
function expectFocusRowsEqualLines(text: string, report: ChargebackReport): void {
  const { header, rows } = parseCsv(text);
  expect(header).toEqual(expect.arrayContaining(['BilledCost', 'SubAccountId', 'x_Namespace', 'BillingCurrency']));
  const lines = report.lines ?? [];
  expect(rows.length).toBe(lines.length);
  let sum = 0n;
  rows.forEach((row, i) => {
    const line = lines[i] as ChargebackLine;
    const where = `FOCUS row ${i + 1}`;
    const billed = microUnits(row.BilledCost as string);
    expect(row.SubAccountId, where).toBe(line.team ?? '');
    expect(row.x_Namespace, where).toBe(line.namespace ?? '');
    expect(billed, where).toBe(int64(line.totalCostMicro));
    expect(microUnits(row.EffectiveCost as string), where).toBe(billed);
    expect(microUnits(row.x_DirectCost as string), where).toBe(int64(line.directCostMicro));
    expect(microUnits(row.x_IdleCost as string), where).toBe(int64(line.idleCostMicro));
    expect(microUnits(row.x_SharedCost as string), where).toBe(int64(line.sharedCostMicro));
    expect(
      microUnits(row.x_DirectCost as string) + microUnits(row.x_IdleCost as string) + microUnits(row.x_SharedCost as string),
      where,
    ).toBe(billed);
    expect(microUnits(row.PricingQuantity as string), where).toBe(microDeviceHours(line.heldMilliSeconds));
    expect(row.BillingCurrency, where).toBe(report.currency);
    sum += billed;
  });
  expect(sum).toBe(int64(report.totalCostMicro));
}

test("the chart's export is the API's CSV at the chart's grouping and resolution", async () => {
  const env = e2eEnv();
  const w = window();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/chargeback?${new URLSearchParams({ ...w, stack: 'model', res: 'month' }).toString()}`);
  await figure(page, 'cost-over-time-total');
  const csv = await downloadBy(page, page.getByRole('button', { name: 'Export chart as CSV' }));
  expect(csv.fileName).toBe(`chargeback-by-model-per-month-${w.start.slice(0, 10)}.csv`);
  const query = new URLSearchParams({ format: 'csv', ...w, group_by: 'model', resolution: 'month' });
  expect(csv.text).toBe(await apiText(`/v1/chargeback/export?${query.toString()}`, env.plannerToken));
  const { rows } = parseCsv(csv.text);
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.reduce((sum, row) => sum + microUnits(row.total_cost as string), 0n).toString()).toBe(
    await figure(page, 'cost-over-time-total'),
  );
  expect(errors).toEqual([]);
  await page.close();
});

// On the Chargeback page at `level`, both exports: each downloaded file is
// the API's export for the same query byte for byte, its rows are the
// report's lines, and those are the rows on screen.
async function checkExports(token: string, level: DrillLevel): Promise<void> {
  const w = window();
  const report = await chargebackAt(w, level, token);
  expect((report.lines ?? []).length).toBeGreaterThan(0);
  const { page, errors } = await newPage(browser.context, token);
  const search = new URLSearchParams({ start: w.start, end: w.end });
  if (level.team !== undefined) search.set('team', level.team);
  await go(page, `/chargeback?${search.toString()}`);
  expect(await figure(page, 'chargeback-total')).toBe(report.totalCostMicro ?? '0');
  for (const line of report.lines ?? []) {
    expect(await figure(page, `chargeback-row-total-${rowName(line, level)}`)).toBe(line.totalCostMicro ?? '0');
  }

  const csv = await downloadBy(page, page.getByRole('button', { name: 'Export CSV' }));
  expect(csv.fileName).toMatch(/^chargeback-csv.*\.csv$/);
  expect(csv.text).toBe(await apiText(`/v1/chargeback/export?format=csv&${drillQuery(w, level)}`, token));
  expectCsvRowsEqualLines(csv.text, report);

  const focus = await downloadBy(page, page.getByRole('button', { name: 'Export FOCUS' }));
  expect(focus.fileName).toMatch(/^chargeback-focus.*\.csv$/);
  expect(focus.text).toBe(await apiText(`/v1/chargeback/export?format=focus&${drillQuery(w, level)}`, token));
  expectFocusRowsEqualLines(focus.text, report);
  expect(errors).toEqual([]);
  await page.close();
}

test("a planner's CSV and FOCUS exports of the teams on screen are the API's, row for row", async () => {
  await checkExports(e2eEnv().plannerToken, {});
});

test("a planner's exports drilled into one team are that team's namespaces, row for row", async () => {
  await checkExports(e2eEnv().plannerToken, { team: e2eEnv().team });
});

test("a team token's exports are its own subtree's lines, row for row", async () => {
  const env = e2eEnv();
  await checkExports(env.teamToken, {});
  const own = await chargebackAt(window(), {}, env.teamToken);
  expect((own.lines ?? []).map((l) => l.team)).not.toContain(env.otherTeam);
});

test('the Kueue and Volcano manifests downloaded are the API’s', async () => {
  const token = e2eEnv().plannerToken;
  const { page, errors } = await newPage(browser.context, token);
  await go(page, '/recommendations');
  await figure(page, 'rec-run-id');
  for (const [format, kind] of [
    ['kueue', /^kind: ClusterQueue$/m],
    ['volcano', /^kind: Queue$/m],
  ] as const) {
    const button = page.getByRole('button', { name: new RegExp(`Download ${format} manifests`, 'i') });
    const file = await downloadBy(page, button);
    expect(file.fileName).toMatch(new RegExp(`^fleetcap-${format}-run-\\d+\\.yaml$`));
    expect(file.text).toBe(await apiText(`/v1/recommendations/manifests?format=${format}`, token));
    expect(file.text).toMatch(kind);
  }
  expect(errors).toEqual([]);
  await page.close();
});
