// The time-range picker: last 24 h, 30 d or a custom range goes into the URL
// (`?range=`, `?start=&end=`), survives a reload and the navigation between
// pages, and the figures become the API's for the new window; a bad value in
// the URL falls back to the last 7 days and says so.

import type { Page } from 'playwright-core';
import { apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { chargebackAt, type ChargebackReport } from './support/chargeback';
import { e2eEnv } from './support/env';
import { figure, go, newPage, screenshot, shownWindow } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const hourMs = 3_600_000;
const presetHours = { '24h': 24, '7d': 168, '30d': 720 } as const;
type Preset = keyof typeof presetHours | 'month' | 'last-month';

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

// A preset's window: the last hours end at the next whole hour after now;
// month to date runs from the first of the UTC month to the next whole hour
// (at least its first hour), last month is the UTC month before.
function presetWindow(preset: Preset, nowMs = Date.now()): { start: string; end: string } {
  const end = Math.ceil(nowMs / hourMs) * hourMs;
  const now = new Date(nowMs);
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  if (preset === 'month') return { start: rfc3339(monthStart), end: rfc3339(Math.max(end, monthStart + hourMs)) };
  if (preset === 'last-month') {
    return { start: rfc3339(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)), end: rfc3339(monthStart) };
  }
  return { start: rfc3339(end - presetHours[preset] * hourMs), end: rfc3339(end) };
}

// The page shows `preset`'s window (either side of an hour boundary
// crossed while the check ran) and that window's chargeback total.
async function expectPresetShown(page: Page, preset: Preset, token: string): Promise<ChargebackReport> {
  // The URL changes first; the page shows the new window on its next render.
  const isPreset = (w: { start: string; end: string }) =>
    [presetWindow(preset), presetWindow(preset, Date.now() - 60_000)].some((p) => p.start === w.start && p.end === w.end);
  await expect.poll(async () => isPreset(await shownWindow(page)), { timeout: 15_000 }).toBe(true);
  const shown = await shownWindow(page);
  expect([presetWindow(preset), presetWindow(preset, Date.now() - 60_000)]).toContainEqual(shown);
  const report = await chargebackAt(shown, {}, token);
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(report.totalCostMicro ?? '0');
  return report;
}

const pressed = (page: Page, name: string) =>
  page.getByRole('group', { name: 'Time range' }).getByRole('button', { name, exact: true }).getAttribute('aria-pressed');

test("choosing 24 h, 30 d and a custom range puts it in the URL and shows the API's figures for it", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/chargeback');
  const week = await expectPresetShown(page, '7d', env.plannerToken);
  expect(await pressed(page, 'Last 7 days')).toBe('true');

  await page.getByRole('button', { name: 'Last 24 h', exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('range') === '24h');
  const day = await expectPresetShown(page, '24h', env.plannerToken);
  expect(day.totalCostMicro).not.toBe(week.totalCostMicro);
  await page.reload();
  expect(new URL(page.url()).searchParams.get('range')).toBe('24h');
  await expectPresetShown(page, '24h', env.plannerToken);
  expect(await pressed(page, 'Last 24 h')).toBe('true');

  await page.getByRole('button', { name: 'Last 30 days', exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('range') === '30d');
  await expectPresetShown(page, '30d', env.plannerToken);

  // Custom: the data's first week, typed as UTC minutes.
  const start = env.start;
  const end = rfc3339(Date.parse(env.start) + 7 * 24 * hourMs);
  await page.getByRole('button', { name: 'Custom', exact: true }).click();
  await page.getByLabel('Start (UTC)').fill(start.slice(0, 16));
  await page.getByLabel('End (UTC)').fill(end.slice(0, 16));
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL((url) => url.searchParams.get('start') === start);
  const url = new URL(page.url());
  expect(url.searchParams.get('end')).toBe(end);
  expect(url.searchParams.get('range')).toBeNull();
  // The URL changes first; the page shows the new window on its next render.
  await expect.poll(() => shownWindow(page), { timeout: 15_000 }).toEqual({ start, end });
  const custom = await chargebackAt({ start, end }, {}, env.plannerToken);
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(custom.totalCostMicro ?? '0');
  await page.reload();
  await expect.poll(() => shownWindow(page), { timeout: 15_000 }).toEqual({ start, end });
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(custom.totalCostMicro ?? '0');
  await screenshot(page, 'chargeback-custom-range');
  expect(errors).toEqual([]);
  await page.close();
});

test("month to date and last month are UTC calendar months with the API's figures, kept on reload", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/chargeback?range=month');
  await expectPresetShown(page, 'month', env.plannerToken);
  expect(await pressed(page, 'Month to date')).toBe('true');

  await page.getByRole('button', { name: 'Last month', exact: true }).click();
  await page.waitForURL((url) => url.searchParams.get('range') === 'last-month');
  await expectPresetShown(page, 'last-month', env.plannerToken);
  await page.reload();
  await expectPresetShown(page, 'last-month', env.plannerToken);
  expect(await pressed(page, 'Last month')).toBe('true');
  await screenshot(page, 'chargeback-last-month');
  expect(errors).toEqual([]);
  await page.close();
});

test('a bad range in the URL falls back to the last 7 days and says why', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  for (const [query, message] of [
    ['range=1y', 'Unknown range "1y"; showing 7d.'],
    ['start=yesterday&end=2026-01-01T00:00:00Z', 'Custom range ignored (start: not an RFC 3339 time); showing 7d.'],
    ['start=2026-01-02T00:00:00Z&end=2026-01-01T00:00:00Z', 'Custom range ignored (end: must be after start); showing 7d.'],
  ] as const) {
    await go(page, `/chargeback?${query}`);
    // (The skeletons of what loads are statuses too.)
    expect(await page.getByRole('status').filter({ hasText: 'showing 7d' }).innerText(), query).toBe(message);
    await expectPresetShown(page, '7d', env.plannerToken);
  }
  expect(errors).toEqual([]);
  await page.close();
});

interface TeamLines {
  lines?: Array<{ team?: string; idleCostMicro?: string }>;
}

test("the range is kept from page to page, and each page shows the API's figures for it", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  const pages = page.getByRole('navigation', { name: 'Pages' });
  await go(page, '/chargeback?range=30d');
  await expectPresetShown(page, '30d', env.plannerToken);

  await pages.getByRole('link', { name: 'Efficiency' }).click();
  await page.waitForURL((url) => url.pathname === '/efficiency');
  expect(new URL(page.url()).searchParams.get('range')).toBe('30d');
  await expect
    .poll(async () => [presetWindow('30d'), presetWindow('30d', Date.now() - 60_000)].map((w) => w.start).includes((await shownWindow(page)).start), { timeout: 15_000 })
    .toBe(true);
  const month = await shownWindow(page);
  expect([presetWindow('30d'), presetWindow('30d', Date.now() - 60_000)]).toContainEqual(month);
  const teams = await apiOk<TeamLines>(
    `/v1/chargeback?${new URLSearchParams({ ...month, group_by: 'team', resolution: 'none' }).toString()}`,
    env.plannerToken,
  );
  expect((teams.lines ?? []).length).toBeGreaterThan(0);
  for (const line of teams.lines ?? []) {
    expect(await figure(page, `efficiency-idle-${line.team}`), line.team).toBe(line.idleCostMicro ?? '0');
  }

  // A custom range is kept the same way, through a page without it.
  const start = env.start;
  const end = rfc3339(Date.parse(env.start) + 3 * 24 * hourMs);
  await go(page, `/efficiency?start=${start}&end=${end}`);
  await pages.getByRole('link', { name: 'Recommendations' }).click();
  await page.waitForURL((url) => url.pathname === '/recommendations');
  await pages.getByRole('link', { name: 'Chargeback' }).click();
  await page.waitForURL((url) => url.pathname === '/chargeback');
  const url = new URL(page.url());
  expect([url.searchParams.get('start'), url.searchParams.get('end')]).toEqual([start, end]);
  const custom = await chargebackAt({ start, end }, {}, env.plannerToken);
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(custom.totalCostMicro ?? '0');
  expect(errors).toEqual([]);
  await page.close();
});
