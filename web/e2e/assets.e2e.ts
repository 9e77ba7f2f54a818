// The Assets page over the demo data's window: what idle costs per model and
// which nodes idle most, each figure on screen equal to GET /v1/fleet/assets
// for the same query, the level, sort and device kept in the URL through a
// reload, a device's pods equal to GET /v1/fleet/assets/holds, and a team
// token told the page is for planners without a request being made.

import type { Page } from 'playwright-core';
import { apiGet, apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { microDeviceHours } from './support/chargeback';
import { microUnits, parseCsv } from './support/csv';
import { downloadBy } from './support/download';
import { e2eEnv, windowQuery } from './support/env';
import { figure, go, newPage, screenshot, seriousAccessibilityViolations } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface AssetRow {
  model?: string;
  cluster?: string;
  node?: string;
  device?: string;
  capacityMilliSeconds?: string;
  heldMilliSeconds?: string;
  usedMilliSeconds?: string;
  idleMilliSeconds?: string;
  idleCostMicro?: string;
}
interface Assets {
  rows?: AssetRow[];
  totals?: AssetRow;
  groups?: string;
}
interface DeviceHolds {
  holds?: { pod?: string; heldMilliSeconds?: string }[];
}

// proto3 JSON leaves a zero out; an unknown figure is left out too, and the page says "unknown".
const int64 = (value: string | undefined) => value ?? '0';
const known = (value: string | undefined) => value ?? 'unknown';

function nameOf(row: AssetRow, level: string): string {
  if (level === 'model') return row.model ?? '';
  if (level === 'cluster') return row.cluster ?? '';
  if (level === 'node') return `${row.cluster ?? ''}/${row.node ?? ''}/${row.model ?? ''}`;
  return `${row.cluster ?? ''}/${row.node ?? ''}/${row.device ?? ''}`;
}

async function assetsApi(level: string, extra = ''): Promise<Assets> {
  return apiOk<Assets>(`/v1/fleet/assets?${windowQuery()}&group_by=${level}&limit=1000${extra}`, e2eEnv().plannerToken);
}

// Every figure of the first `count` rows, and the totals, equal to the API's.
async function expectRowsEqual(page: Page, api: Assets, level: string, count: number): Promise<void> {
  await expect.poll(() => figure(page, 'assets-groups'), { timeout: 15_000 }).toBe(int64(api.groups));
  expect(await figure(page, 'assets-total-capacity')).toBe(int64(api.totals?.capacityMilliSeconds));
  expect(await figure(page, 'assets-total-idle')).toBe(int64(api.totals?.idleMilliSeconds));
  expect(await figure(page, 'assets-total-idle-cost')).toBe(known(api.totals?.idleCostMicro));
  for (const row of (api.rows ?? []).slice(0, count)) {
    const name = nameOf(row, level);
    expect(await figure(page, `assets-row-capacity-${name}`)).toBe(int64(row.capacityMilliSeconds));
    expect(await figure(page, `assets-row-held-${name}`)).toBe(int64(row.heldMilliSeconds));
    expect(await figure(page, `assets-row-used-${name}`)).toBe(known(row.usedMilliSeconds));
    expect(await figure(page, `assets-row-idle-${name}`)).toBe(int64(row.idleMilliSeconds));
    expect(await figure(page, `assets-row-idle-cost-${name}`)).toBe(known(row.idleCostMicro));
  }
}

test('what idle costs per model: every figure is the API’s, in the policy’s currency', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/assets?${windowQuery()}`);
  const api = await assetsApi('model');
  expect((api.rows ?? []).length).toBeGreaterThan(0);
  await expectRowsEqual(page, api, 'model', 50);
  // The demo's chargeback has run: idle has a cost somewhere.
  expect((api.rows ?? []).some((row) => BigInt(int64(row.idleCostMicro)) > 0n)).toBe(true);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await screenshot(page, 'assets-by-model');
  expect(errors).toEqual([]);
  await page.close();
});

test('which nodes idle most: the first page is the API’s most idle nodes, and the level and sort survive a reload', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/assets?${windowQuery()}`);
  await page.getByTestId('assets-group-by').selectOption('node');
  await page.waitForURL((url) => url.searchParams.get('group_by') === 'node');
  const api = await assetsApi('node');
  const rows = api.rows ?? [];
  expect(rows.length).toBeGreaterThan(0);
  await expectRowsEqual(page, api, 'node', Math.min(rows.length, 50));
  // The chargeback has run: a node's used time is known, and the nodes' add up to their models'.
  expect(rows.some((row) => BigInt(int64(row.usedMilliSeconds)) > 0n)).toBe(true);
  const byModel = await assetsApi('model');
  const usedOf = (list: AssetRow[]) =>
    list.reduce((sum, row) => sum + BigInt(int64(row.usedMilliSeconds)), 0n);
  if (Number(int64(api.groups)) === rows.length) expect(usedOf(rows)).toBe(usedOf(byModel.rows ?? []));
  // The table's first row is the node that idled most.
  const first = page.getByTestId('assets-table').locator('tbody tr').first();
  await expect.poll(() => first.locator('td').first().innerText()).toBe(nameOf(rows[0]!, 'node'));
  await screenshot(page, 'assets-by-node');

  // Sorted by idle cost, largest first, in the URL; a reload keeps level and sort.
  await page.getByTestId('assets-table').getByRole('columnheader', { name: /Idle cost/ }).getByRole('button').click();
  await page.waitForURL((url) => url.searchParams.get('sort') === 'idle-cost:desc');
  await page.reload();
  expect(new URL(page.url()).searchParams.get('group_by')).toBe('node');
  expect(await page.getByTestId('assets-group-by').inputValue()).toBe('node');
  const costliest = [...rows].sort((a, b) => {
    const d = BigInt(known(b.idleCostMicro) === 'unknown' ? '-1' : int64(b.idleCostMicro)) -
      BigInt(known(a.idleCostMicro) === 'unknown' ? '-1' : int64(a.idleCostMicro));
    return d > 0n ? 1 : d < 0n ? -1 : 0;
  })[0]!;
  const top = page.getByTestId('assets-table').locator('tbody tr').first();
  await expect.poll(() => top.getByTestId(/assets-row-idle-cost-/).getAttribute('data-value'), { timeout: 15_000 }).toBe(
    known(costliest.idleCostMicro),
  );
  expect(errors).toEqual([]);
  await page.close();
});

// A file's figure: exact device-hours or money as integer millionths; an
// empty field is unknown (the API left the figure out).
const exact = (field: string | undefined) => (field === '' || field === undefined ? 'unknown' : String(microUnits(field)));
const exactHours = (milliSeconds: string | undefined) => String(microDeviceHours(milliSeconds));
const exactKnownHours = (milliSeconds: string | undefined) => (milliSeconds === undefined ? 'unknown' : exactHours(milliSeconds));

test('Export CSV saves the view on screen: every row of the API’s answer for that grouping, filters and window, exact', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  const byModel = (await assetsApi('model')).rows ?? [];
  const model = byModel[0]!.model ?? '';
  await go(page, `/assets?${windowQuery()}&group_by=device&model=${encodeURIComponent(model)}`);
  const api = await assetsApi('device', `&model=${encodeURIComponent(model)}`);
  await expectRowsEqual(page, api, 'device', 1);
  const file = await downloadBy(page, page.getByRole('button', { name: 'Export CSV' }));
  expect(file.fileName).toBe(`assets-by-device-${model}-${env.start.slice(0, 10)}.csv`);
  const { rows } = parseCsv(file.text);
  const apiRows = api.rows ?? [];
  // Every row of the answer, past the table's first page too, in the API's order.
  expect(rows.length).toBe(apiRows.length);
  expect(rows.length).toBeGreaterThan(0);
  for (const [i, row] of apiRows.entries()) {
    const got = rows[i]!;
    const where = `row ${i} ${nameOf(row, 'device')}`;
    expect([got.cluster, got.node, got.device, got.model], where).toEqual([row.cluster ?? '', row.node ?? '', row.device ?? '', row.model ?? '']);
    expect(exact(got.capacity_device_hours), where).toBe(exactHours(row.capacityMilliSeconds));
    expect(exact(got.held_device_hours), where).toBe(exactHours(row.heldMilliSeconds));
    expect(exact(got.used_device_hours), where).toBe(exactKnownHours(row.usedMilliSeconds));
    expect(exact(got.idle_device_hours), where).toBe(exactHours(row.idleMilliSeconds));
    expect(exact(got.idle_cost), where).toBe(known(row.idleCostMicro));
  }
  expect(errors).toEqual([]);
  await page.close();
});

test('a node leads to its devices and a device to the pods that held it, as the API says, through a reload', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  const nodes = (await assetsApi('node')).rows ?? [];
  const node = nodes[0]!;
  await go(page, `/assets?${windowQuery()}&group_by=node`);
  await page.getByRole('button', { name: nameOf(node, 'node'), exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('group_by') === 'device');
  const filter = `&cluster=${encodeURIComponent(node.cluster ?? '')}&model=${encodeURIComponent(node.model ?? '')}&node=${encodeURIComponent(node.node ?? '')}`;
  const devices = await assetsApi('device', filter);
  await expectRowsEqual(page, devices, 'device', 50);
  // The most held device of the node, so that it has pods to show.
  const device = [...(devices.rows ?? [])].sort((a, b) =>
    BigInt(int64(b.heldMilliSeconds)) > BigInt(int64(a.heldMilliSeconds)) ? 1 : -1,
  )[0]!;
  await page.getByRole('button', { name: nameOf(device, 'device'), exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('device') === device.device);
  await page.reload();
  const holds = await apiOk<DeviceHolds>(
    `/v1/fleet/assets/holds?cluster=${encodeURIComponent(device.cluster ?? '')}&device=${encodeURIComponent(device.device ?? '')}&${windowQuery()}`,
    env.plannerToken,
  );
  const list = holds.holds ?? [];
  if (list.length > 0) {
    await page.getByTestId('assets-holds-table').waitFor({ timeout: 15_000 });
    for (const [index, hold] of list.slice(0, 20).entries()) {
      expect(await figure(page, `assets-hold-held-${index}`)).toBe(int64(hold.heldMilliSeconds));
    }
    const held = list.reduce((sum, hold) => sum + BigInt(int64(hold.heldMilliSeconds)), 0n);
    // Under 10,000 holds, the pods' held time is the device's.
    expect(String(held)).toBe(int64(device.heldMilliSeconds));
  } else {
    await page.getByText('No pod held this device in the range.').waitFor({ timeout: 15_000 });
  }
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await screenshot(page, 'assets-device-pods');
  expect(errors).toEqual([]);
  await page.close();
});

test('a team token is told the page is for planners and asks for nothing; the API refuses it', async () => {
  const env = e2eEnv();
  const { page } = await newPage(browser.context, env.teamToken);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1/fleet/assets')) asked.push(request.url());
  });
  await go(page, `/assets?${windowQuery()}&group_by=node`);
  await page.getByTestId('assets-scope').waitFor({ timeout: 15_000 });
  expect(await page.getByTestId('assets-scope').innerText()).toContain('for planners');
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);
  expect(await page.getByTestId('assets-table').count()).toBe(0);
  const refused = await apiGet(`/v1/fleet/assets?${windowQuery()}`, env.teamToken);
  expect(refused.status).toBe(403);
  await screenshot(page, 'assets-team');
  await page.close();
});
