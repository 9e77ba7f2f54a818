// The chargeback API's answer as the checks read it, and the drill-down's
// query for each level (docs/dashboard.md, "Chargeback"): the same call with
// one more group_by field and one more filter.

// The answer's types are the app's own, generated from the protos.
import type { ChargebackLine, ChargebackReport } from '../../src/api/types.gen';
import { apiOk } from './api';

export type { ChargebackLine, ChargebackReport };

export interface DrillLevel {
  team?: string;
  namespace?: string;
}

// The query string the Chargeback page sends for a level and window.
export function drillQuery(window: { start: string; end: string }, level: DrillLevel = {}): string {
  const params = new URLSearchParams({ start: window.start, end: window.end });
  params.set(
    'group_by',
    level.namespace !== undefined ? 'team,namespace,workload' : level.team !== undefined ? 'team,namespace' : 'team',
  );
  params.set('resolution', 'none');
  if (level.team !== undefined) params.set('team', level.team);
  if (level.namespace !== undefined) params.set('namespace', level.namespace);
  return params.toString();
}

export function chargebackAt(
  window: { start: string; end: string },
  level: DrillLevel,
  token: string,
): Promise<ChargebackReport> {
  return apiOk<ChargebackReport>(`/v1/chargeback?${drillQuery(window, level)}`, token);
}

// What a row of the page is named by at a level: the line's team,
// namespace or workload, "(none)" when empty (as the page shows it).
export function rowName(line: ChargebackLine, level: DrillLevel): string {
  const name = level.namespace !== undefined ? line.workload : level.team !== undefined ? line.namespace : line.team;
  return name || '(none)';
}

// A JSON int64 (absent when zero) as a BigInt.
export const int64 = (value: string | undefined): bigint => BigInt(value ?? '0');

// Milli-device-seconds as micro-device-hours, rounded half away from zero as
// the exports print them (docs/chargeback.md, "The formats").
export function microDeviceHours(milliSeconds: string | undefined): bigint {
  const ms = int64(milliSeconds);
  const sign = ms < 0n ? -1n : 1n;
  return (sign * (sign * ms * 10n + 18n)) / 36n;
}

// How the pages write a workload (`Kind/name` in the API): its name, then
// its kind, namespace and (when it differs from the namespace) team as
// secondary text, each once.
export function readableWorkload(workload: string, namespace?: string, team?: string): { name: string; context: string } {
  const slash = workload.indexOf('/');
  const [kind, name] = slash > 0 ? [workload.slice(0, slash), workload.slice(slash + 1)] : ['', workload || '(none)'];
  const context = [kind, namespace ? `namespace ${namespace}` : '', team && team !== namespace ? `team ${team}` : '']
    .filter((part) => part !== '')
    .join(' · ');
  return { name, context };
}
