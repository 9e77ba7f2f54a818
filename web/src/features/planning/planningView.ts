// The Planning page's state in the URL, like the other pages' (so a view can
// be shared): `flavor`, `team` (absent: the flavor's total), `horizon`,
// `capacity` (show or hide the capacity line; absent: shown unless it would
// flatten the forecast) and `scenario` (a saved scenario opened). A bad horizon falls back to the
// default and says why.
import type { Scope } from '../../auth/scope';

export const horizons = ['7d', '14d', '30d', '90d'] as const;
export type Horizon = (typeof horizons)[number];
export const defaultHorizon: Horizon = '90d';

export interface PlanningView {
  flavor: string | null;
  // null: the flavor's total (planners only).
  team: string | null;
  horizon: Horizon;
  // The capacity line asked for in the URL; null: the chart decides.
  capacity: CapacityChoice | null;
  scenarioId: string | null;
  // Why a value in the URL was not used, for the page to say.
  problem: string | null;
}

export type CapacityChoice = 'show' | 'hide';

const isHorizon = (value: string): value is Horizon => (horizons as readonly string[]).includes(value);

export function planningViewFrom(params: URLSearchParams): PlanningView {
  const horizonText = params.get('horizon');
  const scenario = params.get('scenario');
  let problem: string | null = null;
  let horizon = defaultHorizon;
  if (horizonText !== null) {
    if (isHorizon(horizonText)) horizon = horizonText;
    else problem = `horizon: "${horizonText.slice(0, 40)}" is not one of ${horizons.join(', ')}; showing ${defaultHorizon}.`;
  }
  const scenarioId = scenario !== null && /^[1-9]\d{0,18}$/.test(scenario) ? scenario : null;
  if (scenario !== null && scenarioId === null) {
    problem = `scenario: "${scenario.slice(0, 40)}" is not a saved scenario's number.`;
  }
  const capacityText = params.get('capacity');
  const capacity = capacityText === 'show' || capacityText === 'hide' ? capacityText : null;
  if (capacityText !== null && capacity === null) {
    problem = `capacity: "${capacityText.slice(0, 40)}" is neither show nor hide; the chart decides.`;
  }
  return { flavor: params.get('flavor') || null, team: params.get('team') || null, horizon, capacity, scenarioId, problem };
}

// The team whose forecast is asked for: a team token reads its own team when
// the URL names none (a flavor's total compares with capacity, which belongs
// to no team: the API refuses it to teams).
export function forecastTeam(view: PlanningView, scope: Scope): string | null {
  if (scope.team !== null) return view.team ?? scope.team;
  return view.team;
}

// A team token asking (through the URL) for a team outside its subtree.
export function outsideScope(team: string | null, scope: Scope): boolean {
  return scope.team !== null && team !== null && !scope.teams.includes(team);
}

// GET /v1/forecast's parameters for a series.
export function forecastParams(flavor: string, team: string | null, horizon: Horizon): Record<string, string> {
  const params: Record<string, string> = { flavor, horizon, what: 'held' };
  if (team !== null) params.team = team;
  return params;
}
