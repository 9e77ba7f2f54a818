// A team token sees its own subtree and nothing else: the API refuses the
// other team's lines to it, and the dashboard, even when the URL names the
// other team, shows the token's team and none of the other's data.

import { apiGet, apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { e2eEnv, windowQuery } from './support/env';
import { go, newPage, screenshot, seriousAccessibilityViolations } from './support/page';
import { PAGES } from './support/pages';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface WhoAmI {
  role?: string;
  teams?: string[];
}
interface ChargebackLine {
  team?: string;
}
interface ChargebackReport {
  lines?: ChargebackLine[];
}

test('the team token is what the harness says it is', async () => {
  const env = e2eEnv();
  const self = await apiOk<WhoAmI>('/v1/tokens/self', env.teamToken);
  expect(self.role).toBe(`team:${env.team}`);
  expect(self.teams).toContain(env.team);
  expect(self.teams).not.toContain(env.otherTeam);
});

test("the API refuses the other team's chargeback to the team token, not to a planner", async () => {
  const env = e2eEnv();
  const path = `/v1/chargeback?${windowQuery()}&group_by=team&team=${encodeURIComponent(env.otherTeam)}`;
  expect((await apiGet(path, env.teamToken)).status).toBe(403);
  const planner = await apiOk<ChargebackReport>(path, env.plannerToken);
  expect((planner.lines ?? []).length).toBeGreaterThan(0);
  // Unfiltered, the team token's lines are its own subtree's only.
  const own = await apiOk<ChargebackReport>(`/v1/chargeback?${windowQuery()}&group_by=team`, env.teamToken);
  expect((own.lines ?? []).map((l) => l.team)).not.toContain(env.otherTeam);
});

describe.each(PAGES)('the %s page as a team', (name) => {
  test("says whose data it shows and shows none of the other team's, even asked by URL", async () => {
    const env = e2eEnv();
    const { page } = await newPage(browser.context, env.teamToken);
    await go(page, `/${name}?${windowQuery()}&team=${encodeURIComponent(env.otherTeam)}`);
    await page.waitForLoadState('networkidle');
    const text = await page.locator('body').innerText();
    expect(text).toContain(env.team);
    // The other team may be named in a refusal, but never beside figures: no
    // table row or chart legend of the page carries its name.
    expect(await page.locator('tr, [role="row"]').filter({ hasText: env.otherTeam }).count()).toBe(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, `team-${name}`);
    await page.close();
  });
});
