// Every page of the dashboard, signed in as a planner over the demo data's
// window: it loads without a console error, axe-core finds nothing serious or
// critical, and its screenshot is written under FLEETCAP_E2E_OUT_DIR.

import { launchBrowser, type Browser } from './support/browser';
import { windowQuery, e2eEnv } from './support/env';
import { go, newPage, screenshot, seriousAccessibilityViolations } from './support/page';
import { PAGES } from './support/pages';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(PAGES)('the %s page as a planner', (name) => {
  test('loads without console errors or serious accessibility violations', async () => {
    const { page, errors } = await newPage(browser.context, e2eEnv().plannerToken);
    await go(page, `/${name}?${windowQuery()}`);
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe(`/${name}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `planner-${name}`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
