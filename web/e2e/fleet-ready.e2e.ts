// "The Fleet page with 90 days x hourly x all models ready within 1 s of
// navigation": from the start of the navigation to the data-ready marker on
// its main chart, in headless Chromium over the demo data. The figures go to
// FLEETCAP_E2E_OUT_DIR/timings.json and docs/benchmarks.md; this is a
// measurement, not a pass mark (the machine is shared). It ends with one
// `SUMMARY` line with the load average; FLEETCAP_E2E_FLEET_RUNS (default 4)
// sets how many navigations are timed.
import { apiOk } from './support/api';
import { launchBrowser, type Browser } from './support/browser';
import { e2eEnv } from './support/env';
import { newPage, timeToReady } from './support/page';
import { FLEET_MAIN_CHART } from './support/pages';
import { load, median, recordTiming, runCount } from './support/timings';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// The last 90 days of the data, hourly.
function ninetyDays(): string {
  const end = new Date(e2eEnv().end);
  const start = new Date(end.getTime() - 90 * 86_400_000);
  return `/fleet?start=${encodeURIComponent(start.toISOString())}&end=${encodeURIComponent(end.toISOString())}`;
}


// Its own timeout: with a baseline app, twice the navigations, then the API's timings.
test('the Fleet page over 90 days becomes ready, and how fast is recorded', async () => {
  const path = ninetyDays();
  const runs: number[] = [];
  const capacityCalls = new Set<string>();
  const loadBefore = load();
  // Another build of the app over the same API and data (FLEETCAP_E2E_BASELINE_URL), if given:
  // each of its runs right after the same run of this build, so that both see the same load.
  const baselineUrl = e2eEnv().baselineUrl;
  const baselineRuns: number[] = [];
  // The first load fills the HTTP cache with the hashed assets, as a returning user has them.
  for (let i = 0; i < runCount(); i++) {
    const { page, errors } = await newPage(browser.context, e2eEnv().plannerToken);
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/v1/fleet/capacity') capacityCalls.add(url.pathname + url.search);
    });
    runs.push(await timeToReady(page, path, FLEET_MAIN_CHART));
    expect(errors).toEqual([]);
    await page.close();
    if (baselineUrl !== undefined) {
      const other = await newPage(browser.context, e2eEnv().plannerToken);
      baselineRuns.push(await timeToReady(other.page, path, FLEET_MAIN_CHART, 30_000, baselineUrl));
      await other.page.close();
    }
  }
  const timing = recordTiming(
    'fleet_ready_90d_hourly',
    runs,
    `navigation start to ${FLEET_MAIN_CHART} data-ready="true" on ${path} (first run with a cold asset cache)`,
  );
  console.log(`fleet page ready (90 d hourly): ${timing.milliseconds.join(', ')} ms; median ${timing.median} ms`);
  expect(timing.median).toBeGreaterThan(0);

  // The baseline beside it: the page's capacity series calls alone, from Node, same token. The
  // main chart's (hourly) call is what the marker waits for; the heatmap's follows the drawing.
  expect(capacityCalls.size).toBeGreaterThan(0);
  const mainCall = [...capacityCalls].find((call) => call.includes('resolution=hour'));
  expect(mainCall).toBeDefined();
  const timeCalls = async (calls: string[]) => {
    const ms: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 4; i++) {
      const began = performance.now();
      bytes = 0;
      for (const call of calls) bytes += JSON.stringify(await apiOk(call, e2eEnv().plannerToken)).length;
      ms.push(performance.now() - began);
    }
    return { ms, bytes };
  };
  const all = await timeCalls([...capacityCalls]);
  const baseline = recordTiming('fleet_capacity_api_90d_hourly', all.ms, `the page's calls from Node: ${[...capacityCalls].join(' ')}`);
  console.log(`its capacity series from the API alone: ${baseline.milliseconds.join(', ')} ms; median ${baseline.median} ms`);
  // The main call in each layout: the same query, so the difference is the encoding and the parsing.
  const columnar = await timeCalls([mainCall!]);
  const buckets = await timeCalls([mainCall!.replace(/&?layout=columnar/, '')]);
  const main = recordTiming('fleet_capacity_api_90d_hourly_main', columnar.ms, `the main chart's call: ${mainCall}`);
  const old = recordTiming('fleet_capacity_api_90d_hourly_buckets', buckets.ms, 'the same call in the buckets layout');
  console.log(
    `the main chart's call alone: columnar median ${main.median} ms (${columnar.bytes} bytes of JSON), ` +
      `buckets layout median ${old.median} ms (${buckets.bytes} bytes)`,
  );
  if (baselineUrl !== undefined) {
    const oldApp = recordTiming('fleet_ready_90d_hourly_baseline', baselineRuns, `the same, the app served at ${baselineUrl}`);
    console.log(
      `SUMMARY baseline app: fleet page ready (90 d hourly, real API): median ${oldApp.median} ms, warm-cache median ` +
        `${Math.round(median(baselineRuns.slice(1)))} ms over ${baselineRuns.length} navigations (${oldApp.milliseconds.join(', ')} ms)`,
    );
  }
  console.log(
    `SUMMARY fleet page ready (90 d hourly, real API): median ${timing.median} ms, warm-cache median ${Math.round(median(runs.slice(1)))} ms ` +
      `over ${runs.length} navigations; the API's capacity calls alone median ${baseline.median} ms (main call columnar ${main.median} ms, ` +
      `as buckets ${old.median} ms); load average ${loadBefore} before, ${load()} after`,
  );
}, 300_000);
