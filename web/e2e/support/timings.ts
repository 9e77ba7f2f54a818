/// <reference types="node" />
// OUT_DIR/timings.json: the figures the end-to-end run measures, one entry
// per name, merged across test files (which run one after another).

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { e2eEnv } from './env';

export interface Timing {
  milliseconds: number[]; // every run, in order
  median: number;
  note: string;
}

export function recordTiming(name: string, milliseconds: number[], note: string): Timing {
  const file = join(e2eEnv().outDir, 'timings.json');
  mkdirSync(e2eEnv().outDir, { recursive: true });
  const all: Record<string, Timing> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const sorted = [...milliseconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? NaN;
  const timing = { milliseconds: milliseconds.map((m) => Math.round(m)), median: Math.round(median), note };
  all[name] = timing;
  writeFileSync(file, JSON.stringify(all, null, 2) + '\n');
  return timing;
}

// How many navigations a page's timing takes (FLEETCAP_E2E_FLEET_RUNS, default 4).
export function runCount(): number {
  const text = process.env.FLEETCAP_E2E_FLEET_RUNS ?? '4';
  const n = Number(text);
  if (!Number.isInteger(n) || n < 2 || n > 50) throw new Error(`FLEETCAP_E2E_FLEET_RUNS: "${text}" is not a whole number 2..50`);
  return n;
}

export const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
