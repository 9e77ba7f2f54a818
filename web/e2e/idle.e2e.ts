// Idle capacity on the Chargeback page, shared (as billed), kept apart or
// hidden: each team's cost is the API's with or without its idle share, the
// kept line is every line's idle, the hidden total the API's less it, and
// the chart's total agrees with the page's in every mode.

import { launchBrowser, type Browser } from './support/browser';
import { apiOk } from './support/api';
import { chargebackAt, int64, type ChargebackLine, type ChargebackReport } from './support/chargeback';
import { e2eEnv } from './support/env';
import { figure, go, newPage, screenshot, shownWindow } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// A line's idle: all of an idle line, the share received of any other.
const idleOf = (line: ChargebackLine) => (line.lineKind === 'idle' ? int64(line.totalCostMicro) : int64(line.idleCostMicro));

test('idle capacity kept apart or hidden moves or drops exactly the idle the API bills, kept in the URL', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/chargeback?range=30d&idle=kept');
  const { start, end } = await shownWindow(page);
  const api = await chargebackAt({ start, end }, {}, env.plannerToken);
  const lines = api.lines ?? [];
  const idle = lines.reduce((sum, line) => sum + idleOf(line), 0n);
  expect(idle).toBeGreaterThan(0n);

  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(api.totalCostMicro);
  expect(await figure(page, 'chargeback-row-total-idle capacity')).toBe(String(idle));
  for (const line of lines) {
    const without = int64(line.totalCostMicro) - idleOf(line);
    // A line of idle only (the policy's idle team) is not shown as zero.
    if (without === 0n && int64(line.heldMilliSeconds) === 0n) {
      expect(await page.getByTestId(`chargeback-row-total-${line.team}`).count()).toBe(0);
    } else {
      expect(await figure(page, `chargeback-row-total-${line.team}`)).toBe(String(without));
    }
  }
  await expect.poll(() => figure(page, 'cost-over-time-total'), { timeout: 15_000 }).toBe(api.totalCostMicro);
  await screenshot(page, 'chargeback-idle-kept');

  // Stacked by model, the idle kept apart stays with its model: what idle costs per model.
  await page.getByTestId('cost-stack').selectOption('model');
  await page.waitForURL((url) => url.searchParams.get('stack') === 'model');
  const query = new URLSearchParams({ start, end, group_by: 'model', resolution: 'day' });
  const byModel = await apiOk<ChargebackReport>(`/v1/chargeback?${query.toString()}`, env.plannerToken);
  const idleByModel = new Map<string, bigint>();
  for (const line of byModel.lines ?? []) {
    idleByModel.set(line.model ?? '', (idleByModel.get(line.model ?? '') ?? 0n) + idleOf(line));
  }
  expect(idleByModel.size).toBeGreaterThan(1);
  for (const [model, micro] of idleByModel) {
    if (micro === 0n) continue;
    await expect.poll(() => figure(page, `cost-series-idle capacity · ${model}`), { timeout: 15_000 }).toBe(String(micro));
  }
  await screenshot(page, 'chargeback-idle-by-model');

  await page.getByTestId('idle-mode').selectOption('hidden');
  await page.waitForURL((url) => url.searchParams.get('idle') === 'hidden');
  const withoutIdle = String(int64(api.totalCostMicro) - idle);
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(withoutIdle);
  expect(await figure(page, 'chargeback-idle-hidden')).toBe(String(idle));
  await expect.poll(() => figure(page, 'cost-over-time-total'), { timeout: 15_000 }).toBe(withoutIdle);
  expect(await page.getByTestId('chargeback-row-total-idle capacity').count()).toBe(0);
  await page.reload();
  expect(await page.getByTestId('idle-mode').inputValue()).toBe('hidden');
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(withoutIdle);

  await page.getByTestId('idle-mode').selectOption('shared');
  await page.waitForURL((url) => url.searchParams.get('idle') === null);
  await expect.poll(() => figure(page, 'chargeback-total'), { timeout: 15_000 }).toBe(api.totalCostMicro);
  expect(errors).toEqual([]);
  await page.close();
});
