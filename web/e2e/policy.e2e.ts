// The Policy page's history in a planner's words: who applied each version
// (the API says "token:<id>"; a planner cannot list tokens, so the page says
// the id is an API token's, with where its description is) and which version
// it replaced (the API's base_version, 0 for none), with the columns explained.

import type { ListPolicyVersionsResponse } from '../src/api/types.gen';
import { apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { e2eEnv } from './support/env';
import { go, newPage, screenshot } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test('the history names who applied each version and what it replaced, and says what the columns mean', async () => {
  const env = e2eEnv();
  const history = await apiOk<ListPolicyVersionsResponse>('/v1/policy/history', env.plannerToken);
  const versions = history.versions ?? [];
  expect(versions.length).toBeGreaterThan(0);
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/policy');
  const table = page.getByTestId('policy-history');
  await table.waitFor();
  const header = await table.locator('thead th').allInnerTexts();
  const rows = await table
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  expect(rows.length).toBe(versions.length);
  versions.forEach((version, index) => {
    const row = Object.fromEntries(header.map((name, column) => [name, rows[index]?.[column]]));
    const tokenId = (version.appliedBy ?? '').replace(/^token:/, '');
    expect(version.appliedBy).toMatch(/^token:/);
    expect(row['Applied by']).toBe(`API token ${tokenId}`);
    expect(row['Replaced']).toBe(version.baseVersion ? `version ${version.baseVersion}` : 'nothing (the first version)');
  });
  const note = await page.getByTestId('policy-history-note').innerText();
  expect(note).toContain('Applied by: the API token');
  expect(note).toContain('fleetcapctl token list');
  expect(note).toContain('Replaced: the version that was active');
  await screenshot(page, 'planner-policy-history');
  expect(errors).toEqual([]);
  await page.close();
});
