// What the charts show a planner over the demo data: distinct colours for
// every group, a heatmap in percent with a scale that makes low use visible
// and labels that do not overlap, a legend and one title on the Efficiency
// page, and a forecast that a capacity line does not squash.

import { launchBrowser, type Browser } from './support/browser';
import { chartReady, hoverTooltip, overlapping, svgTexts } from './support/charts';
import { e2eEnv, windowQuery } from './support/env';
import { figure, go, newPage, screenshot } from './support/page';

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

// A planner's heatmap is cluster x model; a team's is team x day, up to 150 columns over the data window.
describe.each([
  ['planner', 'the data window'],
  ['planner', 'range=30d'],
  ['planner', 'range=90d'],
  ['team', 'the data window'],
  ['team', 'range=7d'],
] as const)("the utilisation heatmap as a %s over %s", (who, range) => {
  test('reads in percent, its colour scale ends at the highest cell, and no two labels overlap', async () => {
    const env = e2eEnv();
    const { page, errors } = await newPage(browser.context, who === 'planner' ? env.plannerToken : env.teamToken);
    await go(page, `/fleet?${range === 'the data window' ? windowQuery() : range}`);
    await chartReady(page, 'fleet-heatmap');
    const drawn = await svgTexts(page, 'fleet-heatmap');
    const texts = drawn.map((t) => t.text);
    // Every figure carries its unit.
    expect(texts.filter((t) => /^[<\d]/.test(t) && !/^\d{4}-\d{2}-\d{2}$/.test(t) && !t.includes('%'))).toEqual([]);
    const cells = texts.filter((t) => /^<?[\d.]+%$/.test(t) && t !== '0%');
    const highest = texts.filter((t) => t.endsWith('% (highest)'));
    expect(highest).toHaveLength(1);
    // The scale's top is the busiest cell, which was used (not 0, as every cell read before).
    const top = highest[0]!.replace(' (highest)', '');
    expect(top).not.toBe('0%');
    // Cells are labelled where there is room (not a team's 150 days): the busiest of them is the scale's top.
    if (!(who === 'team' && range === 'the data window')) {
      expect(cells).toContain(top);
      expect(Math.max(...cells.map((c) => parseFloat(c.replace('<', ''))))).toBe(parseFloat(top));
    }
    expect(overlapping(drawn)).toEqual([]);
    await page.getByTestId('fleet-heatmap').scrollIntoViewIfNeeded();
    await screenshot(page, `${who}-fleet-heatmap-${range.replace(/[^a-z0-9]+/g, '-')}`, { fullPage: false });
    expect(errors).toEqual([]);
    await page.close();
  });
});

test("a capacity far above the forecast is left out until asked for, and the choice survives a reload", async () => {
  const env = e2eEnv();
  const { page, errors } = await newPage(browser.context, env.plannerToken);
  await go(page, '/planning');
  await chartReady(page, 'planning-forecast-chart');
  const capacity = Number(await figure(page, 'forecast-capacity-end')) / 1000;
  // The y axis's labels: the texts left of the plot, read as numbers.
  const axisTop = async () => {
    const chart = await page.getByTestId('planning-forecast-chart').boundingBox();
    const labels = (await svgTexts(page, 'planning-forecast-chart')).filter((t) => t.right < (chart?.x ?? 0) + 70);
    return Math.max(...labels.map((t) => Number(t.text.replace(/,/g, ''))).filter((n) => Number.isFinite(n)));
  };
  const legend = async () => (await svgTexts(page, 'planning-forecast-chart')).map((t) => t.text);

  // The demo's flavor total holds a few dozen of its thousands of devices: capacity would flatten it.
  const toggle = page.getByTestId('forecast-show-capacity');
  expect(await toggle.isChecked()).toBe(false);
  expect(await page.getByTestId('forecast-capacity-hidden').innerText()).toContain('left out');
  expect(await legend()).not.toContain('capacity');
  expect(await axisTop()).toBeLessThan(capacity / 4);
  await page.getByTestId('planning-forecast-chart').scrollIntoViewIfNeeded();
  await screenshot(page, 'planner-planning-capacity-hidden', { fullPage: false });

  // The box follows the URL, which the router updates a moment after the
  // click (on a busy machine, after Playwright's check() looks): click, then
  // wait for the URL and the box.
  await toggle.click();
  await page.waitForURL((url) => url.searchParams.get('capacity') === 'show');
  await expect.poll(() => toggle.isChecked()).toBe(true);
  await chartReady(page, 'planning-forecast-chart');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="planning-forecast-chart"] svg text')].some((t) => t.textContent === 'capacity'),
  );
  expect(await axisTop()).toBeGreaterThanOrEqual(capacity);

  await page.reload();
  await chartReady(page, 'planning-forecast-chart');
  expect(await page.getByTestId('forecast-show-capacity').isChecked()).toBe(true);
  expect(await legend()).toContain('capacity');
  expect(errors).toEqual([]);
  await page.close();
});
