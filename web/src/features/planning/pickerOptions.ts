// What the Planning page's flavor and team pickers offer.
import type { Scope } from '../../auth/scope';
import type { Recommendation } from '../../api/types';

const unique = (names: Iterable<string>) => [...new Set([...names].filter((n) => n !== ''))];

// The policy's flavors in its order, then any other flavor with a
// recommendation, then the URL's (a shared link always shows its flavor).
export function flavorOptions(policyFlavors: string[], recommendations: Recommendation[], inUrl: string | null): string[] {
  return unique([...policyFlavors, ...recommendations.map((r) => r.flavor ?? ''), ...(inUrl ? [inUrl] : [])]);
}

// A planner: the policy's teams and those with a recommendation, sorted (the
// flavor's total is offered apart). A team token: its subtree only.
export function teamOptions(scope: Scope, policyTeams: string[], recommendations: Recommendation[], inUrl: string | null): string[] {
  if (scope.team !== null) return unique([scope.team, ...[...scope.teams].sort()]);
  return unique([...policyTeams, ...recommendations.map((r) => r.team ?? ''), ...(inUrl ? [inUrl] : [])]).sort();
}
