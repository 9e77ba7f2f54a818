// "The Chargeback page with a 90-day daily chart ready in < 1 s": from the
// start of the navigation to the data-ready marker on its cost over time, by
// team per day over the last 90 days of the data, in headless Chromium. The
// figures go to FLEETCAP_E2E_OUT_DIR/timings.json and docs/benchmarks.md; a
// measurement, not a pass mark (the machine is shared). Beside it, the
// chart's call alone from Node, and with FLEETCAP_E2E_BASELINE_URL another
// build of the app, each of its runs right after the same run of this one.
// Ends with one `SUMMARY` line per build.

import { apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { e2eEnv } from './support/env';
import { newPage, timeToReady } from './support/page';
import { load, median, recordTiming, runCount } from './support/timings';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const chart = 'cost-over-time-chart';

test('the Chargeback page over 90 days per day becomes ready, and how fast is recorded', async () => {
  const end = new Date(e2eEnv().end);
  const start = new Date(end.getTime() - 90 * 86_400_000);
  const window = { start: start.toISOString().replace('.000Z', 'Z'), end: end.toISOString().replace('.000Z', 'Z') };
  const path = `/chargeback?${new URLSearchParams({ ...window, res: 'day' }).toString()}`;
  const loadBefore = load();
  const runs: number[] = [];
  const calls = new Set<string>();
  const baselineUrl = e2eEnv().baselineUrl;
  const baselineRuns: number[] = [];
  for (let i = 0; i < runCount(); i++) {
    const { page, errors } = await newPage(browser.context, e2eEnv().plannerToken);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/v1/chargeback' && url.searchParams.get('resolution') === 'day') calls.add(url.pathname + url.search);
    });
    runs.push(await timeToReady(page, path, chart));
    expect(errors).toEqual([]);
    await page.close();
    if (baselineUrl !== undefined) {
      const other = await newPage(browser.context, e2eEnv().plannerToken);
      baselineRuns.push(await timeToReady(other.page, path, chart, 30_000, baselineUrl));
      await other.page.close();
    }
  }
  const timing = recordTiming('chargeback_ready_90d_daily', runs, `navigation start to ${chart} data-ready="true" on ${path}`);
  expect(timing.median).toBeGreaterThan(0);
  expect(calls.size).toBe(1);
  const api: number[] = [];
  for (let i = 0; i < 4; i++) {
    const began = performance.now();
    await apiOk([...calls][0]!, e2eEnv().plannerToken);
    api.push(performance.now() - began);
  }
  const alone = recordTiming('chargeback_api_90d_daily', api, `the chart's call from Node: ${[...calls][0]}`);
  if (baselineUrl !== undefined) {
    const old = recordTiming('chargeback_ready_90d_daily_baseline', baselineRuns, `the same, the app served at ${baselineUrl}`);
    console.log(
      `SUMMARY baseline app: chargeback page ready (90 d daily by team, real API): median ${old.median} ms, warm-cache ` +
        `median ${Math.round(median(baselineRuns.slice(1)))} ms over ${baselineRuns.length} navigations (${old.milliseconds.join(', ')} ms)`,
    );
  }
  console.log(
    `SUMMARY chargeback page ready (90 d daily by team, real API): median ${timing.median} ms, warm-cache median ` +
      `${Math.round(median(runs.slice(1)))} ms over ${runs.length} navigations (${timing.milliseconds.join(', ')} ms); ` +
      `the chart's call alone median ${alone.median} ms; load average ${loadBefore} before, ${load()} after`,
  );
}, 300_000);
