#!/usr/bin/env node
// Benchmark: how long the built Fleet page takes, in headless Chromium, from
// navigation start to its capacity chart's data-ready marker, for 90 days x
// hourly x MODELS accelerator models (the target), against 24 hours
// of the same models as the baseline in the same run. The API is replaced
// by a local server answering synthetic series of that size, so the figure
// is the page's own cost (download, parse, draw), not the server's.
//
//   npm run build && node scripts/bench-fleet-chart.mjs [--models 12] [--runs 5] [--timeline] [--profile] [--baseline DIR]
//
// --baseline DIR measures another build of the app (its dist/, e.g. of the
// previous commit) in the same run, each run of one build followed by the
// same run of the other, so that both see the same load on a shared machine.
// It ends with one `SUMMARY` line per build (medians and the load average);
// --timeline also prints, for the last 90-day run of each build, when each
// request started and ended, to see what waits for what.
// Chromium: FLEETCAP_CHROMIUM or /usr/bin/chromium (Debian's package).
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
const timeline = args.includes('--timeline');
// --profile: a CPU profile of the last 90-day run of this build, summed by function (self time).
const profiling = args.includes('--profile');
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  const value = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1 || value > 1000) throw new Error(`--${name}: give a whole number 1..1000`);
  return value;
};
const models = option('models', 12);
const runs = option('runs', 5);
const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const baselineAt = args.indexOf('--baseline');
const baselineDist = baselineAt >= 0 ? resolve(args[baselineAt + 1] ?? '') : null;
if (baselineDist !== null && !statSync(join(baselineDist, 'index.html'), { throwIfNoEntry: false })) {
  throw new Error(`--baseline: no index.html in ${baselineDist}; give a built dist/ folder`);
}
const end = Date.parse('2026-12-01T00:00:00Z');
const hourMs = 3_600_000;
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

const iso = (t) => new Date(t).toISOString().replace('.000Z', 'Z');

// Answers in the layout asked for (layout=columnar: one time axis and three
// arrays per group; otherwise a bucket object per group and time), as
// fleetcap-api does: a build from before the columnar layout gets buckets.
function series(url) {
  const start = Date.parse(url.searchParams.get('start'));
  const stop = Date.parse(url.searchParams.get('end'));
  const groupBy = (url.searchParams.get('group_by') ?? '').split(',');
  const columnar = url.searchParams.get('layout') === 'columnar';
  // The page asks for hourly buckets for the stacked chart and daily ones for the heatmap.
  const step = url.searchParams.get('resolution') === 'day' ? 24 * hourMs : hourMs;
  const groups = [];
  for (let m = 0; m < models; m++) {
    const buckets = [];
    for (let t = start; t < stop; t += step) {
      const devices = 8 + m;
      const held = Math.round(devices * 1000 * (0.5 + 0.4 * Math.sin(t / 86_400_000 + m)));
      buckets.push({
        start: iso(t),
        capacityMilliSeconds: String(devices * 1000 * (step / 1000)),
        heldMilliSeconds: String(held * (step / 1000)),
        usedMilliSeconds: String(Math.round(held * 0.6) * (step / 1000)),
      });
    }
    const group = { model: `model-${m}`, cluster: groupBy.includes('cluster') ? `cluster-${m % 3}` : '', team: '' };
    if (columnar) {
      for (const figure of ['capacityMilliSeconds', 'heldMilliSeconds', 'usedMilliSeconds']) {
        group[figure] = buckets.map((b) => b[figure]);
      }
      groups.push({ ...group, buckets: [] });
    } else {
      groups.push({ ...group, buckets });
    }
  }
  if (!columnar) return { groups };
  return { start: iso(start), end: iso(stop), layout: 'COLUMNAR', stepSeconds: step / 1000, groups };
}

const answers = {
  '/v1/tokens/self': () => ({ tokenId: 'bench', role: 'planner' }),
  '/v1/fleet/capacity': series,
  '/v1/fleet/summary': () => ({ devices: '8', heldMilli: '4000', models: [{ model: 'model-0', devices: '8', heldMilli: '4000' }] }),
  '/v1/fleet/pending': () => ({}),
};

// Each answer is made once: the server's own time stays out of the figure
// (it serves in one thread beside the page's chunks).
const answered = new Map();
function serve(root) {
  return createServer((request, response) => {
    const url = new URL(request.url, 'http://localhost');
    const answer = answers[url.pathname];
    if (answer) {
      if (!answered.has(url.href)) answered.set(url.href, JSON.stringify(answer(url)));
      response.writeHead(200, { 'Content-Type': 'application/json' });
      return response.end(answered.get(url.href));
    }
    let file = join(root, url.pathname);
    if (!file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile()) file = join(root, 'index.html');
    // As fleetcap-api serves them: hashed assets are cached for good, the page is revalidated.
    const cacheControl = url.pathname.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    response.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Cache-Control': cacheControl });
    response.end(readFileSync(file));
  });
}
// One server (so one origin and one asset cache) per build.
const builds = [];
for (const [name, root] of [['this build', dist], ...(baselineDist ? [[`baseline ${baselineDist}`, baselineDist]] : [])]) {
  const server = serve(root);
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  builds.push({ name, server, base: `http://127.0.0.1:${server.address().port}`, medians: [] });
}

const profile = mkdtempSync(join(tmpdir(), 'fleetcap-bench-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.FLEETCAP_CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

// The functions that took the most main-thread time in a CPU profile, by self time.
function topFunctions(profile, count = 25) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id).callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\//, '')}:${lineNumber + 1}:${columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
}

async function timeToReady(base, hours, profile = false) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  await page.addInitScript(() => {
    window.sessionStorage.setItem('fleetcap.token', 'fct_bench');
    new MutationObserver(() => {
      if (window.__readyAt === undefined && document.querySelector('[data-testid="fleet-capacity-chart"][data-ready="true"]')) {
        window.__readyAt = performance.now();
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  // The page's main-thread CPU time (Chromium's TaskDuration counted in
  // thread ticks): what the page's own work costs, far less sensitive to
  // the other work on a shared machine than the wall clock.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const start = new Date(end - hours * hourMs).toISOString();
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.goto(`${base}/fleet?start=${start}&end=${new Date(end).toISOString()}`);
  await page.waitForSelector('[data-testid="fleet-capacity-chart"][data-ready="true"]', { timeout: 60_000 });
  const top = profile ? topFunctions((await cdp.send('Profiler.stop')).profile) : [];
  const at = await page.evaluate(() => window.__readyAt);
  const { metrics } = await cdp.send('Performance.getMetrics');
  const busy = 1000 * (metrics.find((m) => m.name === 'TaskDuration')?.value ?? NaN);
  const requests = timeline
    ? await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => `${Math.round(e.startTime)}-${Math.round(e.responseEnd)} ms ${e.name.replace(location.origin, '').slice(0, 48)} (${e.transferSize} bytes)`),
      )
    : [];
  await page.close();
  if (errors.length > 0) throw new Error(`console errors: ${errors.join('; ')}`);
  return { at, busy, requests, top };
}

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  const loadBefore = load();
  // Warm each build's asset cache, as a returning user has it.
  for (const build of builds) await timeToReady(build.base, 24);
  const last = builds.map(() => null);
  for (const [name, hours] of [['24h (baseline)', 24], ['90d hourly', 2160]]) {
    const times = builds.map(() => []);
    const busy = builds.map(() => []);
    for (let i = 0; i < runs; i++) {
      for (const [b, build] of builds.entries()) {
        const run = await timeToReady(build.base, hours, profiling && b === 0 && hours === 2160 && i === runs - 1);
        times[b].push(run.at);
        busy[b].push(run.busy);
        last[b] = run;
      }
    }
    for (const [b, build] of builds.entries()) {
      build.medians.push([median(times[b]), median(busy[b])]);
      console.log(
        `${build.name}: fleet page ready, ${name}, ${models} models x ${hours} hourly points: median ${median(times[b]).toFixed(0)} ms ` +
          `(runs: ${times[b].map((t) => t.toFixed(0)).join(', ')}); main-thread CPU median ${median(busy[b]).toFixed(0)} ms`,
      );
    }
  }
  for (const [b, build] of timeline ? builds.entries() : []) {
    console.log(`${build.name}, the last 90-day run, ready at ${last[b].at.toFixed(0)} ms; its requests (start-end after navigation start):`);
    for (const line of last[b].requests) console.log(`  ${line}`);
  }
  if (profiling) {
    console.log(`this build, the last 90-day run: the functions with the most main-thread time (self, ms):`);
    for (const [name, ms] of last[0].top) console.log(`  ${ms.toFixed(1).padStart(7)} ${name}`);
  }
  const loadAfter = load();
  for (const build of builds) {
    console.log(
      `SUMMARY ${build.name}: fleet page ready, 24 h median ${build.medians[0][0].toFixed(0)} ms (main-thread CPU ${build.medians[0][1].toFixed(0)} ms), ` +
        `90 d hourly median ${build.medians[1][0].toFixed(0)} ms (CPU ${build.medians[1][1].toFixed(0)} ms) ` +
        `(${models} models, ${runs} runs each; load average ${loadBefore} before, ${loadAfter} after)`,
    );
  }
} finally {
  await context.close();
  for (const build of builds) build.server.close();
  rmSync(profile, { recursive: true, force: true });
}
