// Saved views: a planner saves the Chargeback page as it is (time range,
// grouping, idle) under a name, opens it again from another page and after
// a reload, with the same figures; a team token lists only its own views;
// a removed view is gone.

import type { Locator, Page } from 'playwright-core';
import { launchBrowser, type Browser } from './support/browser';
import { apiOk } from './support/api';
import { e2eEnv } from './support/env';
import { figure, go, newPage, screenshot } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const name = 'Idle by model, last month';

// The "Saved views" disclosure, opened (it stays as it was from page to page).
async function openSavedViews(page: Page): Promise<Locator> {
  const views = page.getByTestId('saved-views');
  if ((await views.getAttribute('open')) === null) await views.locator('summary').click();
  return views;
}

test('a saved view opens the page as it was saved, for its token only, until removed', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  const state = 'range=30d&stack=model&idle=kept&res=day';
  await go(page, `/chargeback?${state}`);
  const total = await figure(page, 'cost-over-time-total');
  const views = await openSavedViews(page);
  await views.getByLabel('View name').fill(name);
  await views.getByRole('button', { name: 'Save this view' }).click();
  await views.getByRole('link', { name }).waitFor();
  const stored = await apiOk<{ views?: Array<{ name?: string; path?: string; query?: string }> }>('/v1/views', env.plannerToken);
  expect(stored.views).toContainEqual(expect.objectContaining({ name, path: '/chargeback', query: state }));

  // From another page, the view opens the Chargeback page as it was.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Fleet' }).click();
  await page.waitForURL((url) => url.pathname === '/fleet');
  await (await openSavedViews(page)).getByRole('link', { name }).click();
  await page.waitForURL((url) => url.pathname === '/chargeback' && url.search === `?${state}`);
  expect(await page.getByTestId('cost-stack').inputValue()).toBe('model');
  expect(await page.getByTestId('idle-mode').inputValue()).toBe('kept');
  await expect.poll(() => figure(page, 'cost-over-time-total'), { timeout: 15_000 }).toBe(total);
  await page.reload();
  await (await openSavedViews(page)).getByRole('link', { name }).waitFor();
  await screenshot(page, 'saved-views');

  // Another token keeps its own views: the planner's is not among them.
  const team = await newPage(browser.context, env.teamToken);
  await go(team.page, '/chargeback');
  await (await openSavedViews(team.page)).getByText(/No saved views yet/).waitFor();
  expect(await team.page.getByTestId('saved-views').getByRole('link', { name }).count()).toBe(0);
  expect(team.errors).toEqual([]);
  await team.page.close();

  await (await openSavedViews(page)).getByRole('button', { name: `Remove ${name}` }).click();
  await expect.poll(() => page.getByTestId('saved-views').getByRole('link', { name }).count(), { timeout: 15_000 }).toBe(0);
  expect((await apiOk<{ views?: Array<{ name?: string }> }>('/v1/views', env.plannerToken)).views ?? []).not.toContainEqual(
    expect.objectContaining({ name }),
  );
  expect(errors).toEqual([]);
  await page.close();
});
