/// <reference types="node" />
// What the harness (tests/web/web_e2e.sh) tells the end-to-end checks: where
// the real fleetcap-api serves the built app, the tokens to sign in with, the
// data's window, and where screenshots and timings go. A missing variable
// stops the run naming it, rather than testing against nothing.

export interface E2eEnv {
  baseUrl: string; // http://127.0.0.1:PORT, no trailing slash
  plannerToken: string;
  teamToken: string;
  team: string; // the team of teamToken
  otherTeam: string; // a team teamToken must not see
  start: string; // RFC 3339, the demo data's window [start, end)
  end: string;
  outDir: string; // screenshots/ and timings.json
  chromium: string; // the browser executable (Debian's chromium)
  // Optional: another build of the app served over the same data, timed beside this one.
  baselineUrl?: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`${name} is not set: run the end-to-end checks through tests/web/web_e2e.sh (ctest -R web_e2e_test)`);
  }
  return value;
}

function rfc3339(name: string): string {
  const value = required(name);
  if (Number.isNaN(Date.parse(value))) throw new Error(`${name}: "${value}" is not an RFC 3339 time`);
  return value;
}

let cached: E2eEnv | undefined;

export function e2eEnv(): E2eEnv {
  cached ??= {
    baseUrl: required('FLEETCAP_E2E_BASE_URL').replace(/\/+$/, ''),
    plannerToken: required('FLEETCAP_E2E_PLANNER_TOKEN'),
    teamToken: required('FLEETCAP_E2E_TEAM_TOKEN'),
    team: required('FLEETCAP_E2E_TEAM'),
    otherTeam: required('FLEETCAP_E2E_OTHER_TEAM'),
    start: rfc3339('FLEETCAP_E2E_START'),
    end: rfc3339('FLEETCAP_E2E_END'),
    outDir: required('FLEETCAP_E2E_OUT_DIR'),
    chromium: process.env.FLEETCAP_CHROMIUM || '/usr/bin/chromium',
    baselineUrl: process.env.FLEETCAP_E2E_BASELINE_URL?.replace(/\/+$/, '') || undefined,
  };
  return cached;
}

// The query string of a custom time range over the whole data window.
export function windowQuery(env: E2eEnv = e2eEnv()): string {
  return `start=${encodeURIComponent(env.start)}&end=${encodeURIComponent(env.end)}`;
}
