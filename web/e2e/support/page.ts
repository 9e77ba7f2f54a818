/// <reference types="node" />
// One page of the dashboard under test: signed in (or not), with every
// console error and uncaught exception collected, checked by axe-core,
// photographed, and timed to its ready marker.

import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { e2eEnv } from './env';

// sessionStorage key of the token (the dashboard's contract): never in the URL.
export const TOKEN_KEY = 'fleetcap.token';
// The marker a page's main chart carries once it has drawn its data.
export const READY_SELECTOR = '[data-ready="true"]';

export interface OpenPage {
  page: Page;
  // Console errors and uncaught exceptions since the page opened, in order.
  errors: string[];
  // Console warnings since the page opened, in order: React and its router
  // warn (rather than fail) about a route or element they cannot handle well.
  warnings: string[];
  // The browser's console line for each request the API refused for now
  // (429: the token's requests already running, as after a reload while the
  // previous page's are still answered). The app asks again when the
  // server's Retry-After says (queryClient.ts), so these are not errors.
  refusedForNow: string[];
}

// Records, from the first byte of every document, when each ready marker
// first appears (performance.now(): milliseconds since the navigation
// started), by the data-testid of the element carrying it.
function installReadyProbe(): void {
  const w = window as unknown as { __fleetcapReadyAt?: Record<string, number> };
  const seen: Record<string, number> = {};
  w.__fleetcapReadyAt = seen;
  const check = () => {
    document.querySelectorAll('[data-ready="true"]').forEach((element) => {
      const name = element.getAttribute('data-testid') ?? '';
      if (seen[name] === undefined) seen[name] = performance.now();
    });
  };
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['data-ready'],
  });
}

// A new tab; with `token`, signed in by putting it where the app keeps it,
// before any of the app's scripts run.
export async function newPage(context: BrowserContext, token?: string): Promise<OpenPage> {
  const page = await context.newPage();
  const errors: string[] = [];
  const warnings: string[] = [];
  const refusedForNow: string[] = [];
  page.on('console', (message) => {
    const text = `console: ${message.text()} (${message.location().url})`;
    if (message.type() === 'error' && message.text().includes('the server responded with a status of 429')) {
      refusedForNow.push(text);
    } else if (message.type() === 'error') errors.push(text);
    else if (message.type() === 'warning') warnings.push(text);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  await page.addInitScript(installReadyProbe);
  if (token !== undefined) {
    await page.addInitScript(
      ([key, value]) => {
        window.sessionStorage.setItem(key, value);
      },
      [TOKEN_KEY, token] as const,
    );
  }
  return { page, errors, warnings, refusedForNow };
}

// A relative range (`range=30d`, or none: the page's default) ends at the
// current whole hour, and the page moves it when the hour turns
// (web/src/time/useTimeRange.ts): a check that compares the page with the
// API over a minute must not straddle the turn, or the table's later pages
// are of the next hour's window (seen once in CI).
const CLEAR_OF_THE_HOUR_TURN_MS = 60_000;

// Waits for the hour to turn if it turns within a minute.
export async function clearOfTheHourTurn(): Promise<void> {
  const left = 3_600_000 - (Date.now() % 3_600_000);
  if (left < CLEAR_OF_THE_HOUR_TURN_MS) await new Promise((resolve) => setTimeout(resolve, left + 1_000));
}

// Navigates to `path` (with its query) on the server under test (or another,
// `baseUrl`); a relative range a minute clear of the hour's turn.
export async function go(page: Page, path: string, baseUrl = e2eEnv().baseUrl): Promise<void> {
  if (!/[?&]start=/.test(path)) await clearOfTheHourTurn();
  const response = await page.goto(baseUrl + path, { waitUntil: 'load' });
  if (response === null || response.status() !== 200) {
    throw new Error(`GET ${path}: HTTP ${response?.status() ?? 'no response'}`);
  }
}

// Milliseconds from the start of the navigation to `path` until the chart
// named `testId` carried the ready marker, waiting at most `timeoutMs`.
export async function timeToReady(
  page: Page,
  path: string,
  testId: string,
  timeoutMs = 30_000,
  baseUrl = e2eEnv().baseUrl,
): Promise<number> {
  await go(page, path, baseUrl);
  await page.waitForSelector(`[data-testid="${testId}"]${READY_SELECTOR}`, { timeout: timeoutMs });
  const at = await page.evaluate(
    (name) => (window as unknown as { __fleetcapReadyAt?: Record<string, number> }).__fleetcapReadyAt?.[name],
    testId,
  );
  if (at === undefined) throw new Error(`${path}: ${testId} became ready but its time was not recorded`);
  return at;
}

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

const requireFromHere = createRequire(import.meta.url);
let axeSource: string | undefined;

// axe-core's findings of serious or critical impact on the page as it is now.
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(requireFromHere.resolve('axe-core/axe.min.js'), 'utf8');
  await page.addScriptTag({ content: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, o: object) => Promise<{ violations: unknown[] }> } })
      .axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations as Array<{
      id: string;
      impact: string | null;
      help: string;
      nodes: Array<{ target: unknown[] }>;
    }>;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact ?? '',
      help: v.help,
      targets: v.nodes.map((n) => n.target.map(String).join(' ')),
    }));
}

// Writes OUT_DIR/screenshots/NAME.png (the whole page, or with `fullPage:
// false` the window as scrolled) and returns its path.
export async function screenshot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  const dir = join(e2eEnv().outDir, 'screenshots');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name.replace(/[^A-Za-z0-9_-]+/g, '-')}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

// The exact value (data-value) of the figure named `testId`, once it is shown.
export async function figure(page: Page, testId: string, timeoutMs = 15_000): Promise<string> {
  const element = page.getByTestId(testId);
  await element.waitFor({ timeout: timeoutMs });
  const value = await element.getAttribute('data-value');
  if (value === null) throw new Error(`${testId}: shown without a data-value`);
  return value;
}

// The window a page says it shows (`range-shown`: "START – END").
export async function shownWindow(page: Page): Promise<{ start: string; end: string }> {
  const text = await page.getByTestId('range-shown').innerText();
  const [start, end] = text.split('–').map((part) => part.trim().replace(' ', 'T'));
  return { start: start ?? '', end: end ?? '' };
}
