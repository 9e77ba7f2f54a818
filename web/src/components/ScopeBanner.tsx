import type { Scope } from '../auth/session';

// Says what the signed-in token can see, so a team never mistakes its view for the fleet's.
export function ScopeBanner({ scope }: { scope: Scope }) {
  if (scope.team !== null) {
    const others = scope.teams.filter((t) => t !== scope.team);
    return (
      <p className="scope" data-testid="scope-banner" data-team={scope.team}>
        You see team <strong>{scope.team}</strong> and its sub-teams
        {others.length > 0 ? ` (${others.join(', ')})` : ''}.
      </p>
    );
  }
  return (
    <p className="scope" data-testid="scope-banner" data-role={scope.role}>
      Signed in as <strong>{scope.role}</strong>: you see the whole fleet.
    </p>
  );
}
