// Signing in with a token: a wrong one is refused with a message a person
// understands, a right one opens the dashboard and never shows up in the URL.

import { launchBrowser, type Browser } from './support/browser';
import { e2eEnv } from './support/env';
import { go, newPage, screenshot, seriousAccessibilityViolations, TOKEN_KEY } from './support/page';
import { SIGN_IN } from './support/pages';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test('a bad token is refused on the sign-in page with an error', async () => {
  const { page } = await newPage(browser.context);
  await go(page, SIGN_IN.path);
  expect(await seriousAccessibilityViolations(page)).toEqual([]);
  await screenshot(page, 'signin');
  await page.getByLabel(SIGN_IN.tokenLabel).fill('fct_not-a-real-token');
  await page.getByRole('button', { name: SIGN_IN.submitName }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor({ timeout: 10_000 });
  expect((await alert.innerText()).trim().length).toBeGreaterThan(0);
  await screenshot(page, 'signin-refused');
  expect(await page.evaluate((key) => window.sessionStorage.getItem(key), TOKEN_KEY)).toBeNull();
  expect(page.url()).not.toContain('fct_not-a-real-token');
  await page.close();
});

test('a planner token signs in and stays out of the URL', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context);
  await go(page, SIGN_IN.path);
  await page.getByLabel(SIGN_IN.tokenLabel).fill(env.plannerToken);
  await page.getByRole('button', { name: SIGN_IN.submitName }).click();
  await page.waitForURL((url) => url.pathname !== SIGN_IN.path, { timeout: 10_000 });
  expect(page.url()).not.toContain(env.plannerToken);
  expect(await page.evaluate((key) => window.sessionStorage.getItem(key), TOKEN_KEY)).toBe(env.plannerToken);
  expect(errors).toEqual([]);
  await page.close();
});
