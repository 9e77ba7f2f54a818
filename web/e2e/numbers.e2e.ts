// The figures on screen are the API's for the same query: each page's
// figures carry the API's exact value in data-value (docs/dashboard.md
// lists their data-testid names), read here beside the same call made from
// Node with the same token.

import { apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { e2eEnv, windowQuery } from './support/env';
import { figure, go, newPage } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface ChargebackReport {
  totalCostMicro?: string;
}
interface PolicyVersion {
  version?: string | number;
}
interface RecommendationSet {
  runId?: string;
}

test("the chargeback total is the API's, for a planner and for a team", async () => {
  const env = e2eEnv();
  for (const token of [env.plannerToken, env.teamToken]) {
    const api = await apiOk<ChargebackReport>(`/v1/chargeback?${windowQuery()}&group_by=team`, token);
    expect(BigInt(api.totalCostMicro ?? '0')).toBeGreaterThan(0n);
    const { page } = await newPage(browser.context, token);
    await go(page, `/chargeback?${windowQuery()}`);
    expect(await figure(page, 'chargeback-total')).toBe(api.totalCostMicro ?? '0');
    await page.close();
  }
});

test("the policy version and the recommendations' run are the API's", async () => {
  const env = e2eEnv();
  const policy = await apiOk<PolicyVersion>('/v1/policy', env.plannerToken);
  const recommendations = await apiOk<RecommendationSet>('/v1/recommendations', env.plannerToken);
  const { page } = await newPage(browser.context, env.plannerToken);
  await go(page, '/policy');
  expect(await figure(page, 'policy-version')).toBe(String(policy.version ?? 0));
  await go(page, `/recommendations?${windowQuery()}`);
  expect(await figure(page, 'rec-run-id')).toBe(recommendations.runId ?? '0');
  await page.close();
});
