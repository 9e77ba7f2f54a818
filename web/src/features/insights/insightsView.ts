// The Insights page's scope: whose figures each section asks for. The time
// range is the picker's (`range=` or `start=`/`end=`); `team=` names a team
// (and its sub-teams). A planner without `team=` sees the fleet; a team token
// never does: it asks for its own team unless the URL names one of its
// sub-teams, and a URL naming any other team asks for nothing (the API would
// refuse it).
import type { Scope } from '../../auth/scope';
import type { TimeRange } from '../../time/range';

export interface InsightsScope {
  // The team every section asks for; null: the fleet (planners only).
  team: string | null;
  // The URL names a team outside a team token's subtree.
  outside: boolean;
}

export function insightsScope(params: URLSearchParams, scope: Scope): InsightsScope {
  const inUrl = params.get('team') || null;
  if (scope.team === null) return { team: inUrl, outside: false };
  const team = inUrl ?? scope.team;
  return { team, outside: !scope.teams.includes(team) && team !== scope.team };
}

// How many workloads (waste), recommendations and contributors per driver
// each section asks for: the top of each list is what a planner acts on.
export const WORKLOADS_SHOWN = 20;
export const RECOMMENDATIONS_SHOWN = 20;
export const CONTRIBUTORS_SHOWN = 5;

const teamParam = (team: string | null) => (team === null ? {} : { team });

export const wasteParams = (range: TimeRange, team: string | null) => ({
  start: range.start,
  end: range.end,
  ...teamParam(team),
  limit: String(WORKLOADS_SHOWN),
});

export const rightsizingParams = (team: string | null) => ({ ...teamParam(team), limit: String(RECOMMENDATIONS_SHOWN) });

export const changeParams = (range: TimeRange, team: string | null) => ({
  start: range.start,
  end: range.end,
  ...teamParam(team),
  top: String(CONTRIBUTORS_SHOWN),
});

export const budgetParams = (team: string | null) => teamParam(team);
