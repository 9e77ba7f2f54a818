// What `make demo` promises whoever opens the URL it prints with the tokens
// it prints: the sign-in page at that URL, a planner who sees a fleet with
// history up to the present, and a team that sees its own bill. The same
// checks run against the harness's stack and, through
// `scripts/demo.sh check`, against a running demo.

import type { Page } from 'playwright-core';
import { apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { chargebackAt } from './support/chargeback';
import { e2eEnv } from './support/env';
import { figure, newPage, screenshot } from './support/page';
import { FLEET_MAIN_CHART, SIGN_IN } from './support/pages';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const hourMs = 3_600_000;

// The page's calls ask for the COLUMNAR layout: one time axis, per group one
// array per figure aligned to it.
interface CapacitySeries {
  start?: string;
  stepSeconds?: number;
  groups?: Array<{ capacityMilliSeconds?: string[]; heldMilliSeconds?: string[] }>;
}

// Opens the bare URL, is sent to sign in, and signs in with `token` through the form.
async function signInAtRoot(page: Page, token: string): Promise<void> {
  await page.goto(e2eEnv().baseUrl + '/');
  await page.waitForURL((url) => url.pathname === SIGN_IN.path);
  await page.getByLabel(SIGN_IN.tokenLabel).fill(token);
  await page.getByRole('button', { name: SIGN_IN.submitName }).click();
  await page.waitForURL((url) => url.pathname !== SIGN_IN.path, { timeout: 10_000 });
}

// The newest bucket start at which `pick` of some group is above zero.
function newest(series: CapacitySeries, pick: (g: { capacityMilliSeconds?: string[]; heldMilliSeconds?: string[] }) => string[] | undefined): number {
  let latest = -Infinity;
  const start = Date.parse(series.start ?? '');
  const stepMs = (series.stepSeconds ?? 0) * 1000;
  for (const group of series.groups ?? []) {
    (pick(group) ?? []).forEach((value, i) => {
      if (BigInt(value) > 0n) latest = Math.max(latest, start + i * stepMs);
    });
  }
  return latest;
}

test('the planner token opens, at the bare URL, a fleet whose history reaches the present', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context);
  const capacityCalls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/v1/fleet/capacity' && url.searchParams.get('resolution') === 'hour') {
      capacityCalls.push(url.pathname + url.search);
    }
  });
  await signInAtRoot(page, env.plannerToken);
  expect(new URL(page.url()).pathname).toBe('/fleet');
  await page.waitForSelector(`[data-testid="${FLEET_MAIN_CHART}"][data-ready="true"]`, { timeout: 30_000 });
  expect(BigInt(await figure(page, 'fleet-devices'))).toBeGreaterThan(0n);
  await screenshot(page, 'demo-fleet');

  // The chart's own call covers the last week up to the next whole hour,
  // and its answer has devices in service in this hour or the last, and
  // held devices in the last day.
  expect(capacityCalls.length).toBeGreaterThan(0);
  const call = new URL(env.baseUrl + (capacityCalls[0] as string));
  const thisHour = Math.floor(Date.now() / hourMs) * hourMs;
  expect(Date.parse(call.searchParams.get('end') ?? '')).toBeGreaterThanOrEqual(thisHour);
  const series = await apiOk<CapacitySeries>(capacityCalls[0] as string, env.plannerToken);
  expect(newest(series, (g) => g.capacityMilliSeconds)).toBeGreaterThanOrEqual(thisHour - hourMs);
  expect(newest(series, (g) => g.heldMilliSeconds)).toBeGreaterThanOrEqual(thisHour - 24 * hourMs);
  expect(errors).toEqual([]);
  await page.close();
});

test('the team token opens, at the bare URL, its own bill and says whose it is', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context);
  await signInAtRoot(page, env.teamToken);
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Chargeback' }).click();
  await page.waitForURL((url) => url.pathname === '/chargeback');
  expect(await page.getByTestId('scope-banner').getAttribute('data-team')).toBe(env.team);
  const shown = (await page.getByTestId('range-shown').innerText()).split('–').map((s) => s.trim().replace(' ', 'T'));
  const report = await chargebackAt({ start: shown[0] ?? '', end: shown[1] ?? '' }, {}, env.teamToken);
  expect(BigInt(report.totalCostMicro ?? '0')).toBeGreaterThan(0n);
  expect(await figure(page, 'chargeback-total')).toBe(report.totalCostMicro);
  expect(errors).toEqual([]);
  await page.close();
});
