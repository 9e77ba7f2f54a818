// Every page of the dashboard, signed in as a planner over the demo data's
// window: it loads without a console error or warning, axe-core finds
// nothing serious or critical, and its screenshot is written under
// FLEETCAP_E2E_OUT_DIR. Every page loaded in full as a team, too, logs no
// console error or warning.

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
  test('loads without console errors or warnings or serious accessibility violations', async () => {
    const { page, errors, warnings } = await newPage(browser.context, e2eEnv().plannerToken);
    await go(page, `/${name}?${windowQuery()}`);
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe(`/${name}`);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `planner-${name}`);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    await page.close();
  });
});

// A full load (not a navigation within the app) is when the router renders
// before its loaders have run, and warns when a route gives it nothing to show.
describe.each(PAGES)('the %s page as a team', (name) => {
  test('loads in full without console errors or warnings', async () => {
    const { page, errors, warnings } = await newPage(browser.context, e2eEnv().teamToken);
    await go(page, `/${name}?${windowQuery()}`);
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe(`/${name}`);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    await page.close();
  });
});
