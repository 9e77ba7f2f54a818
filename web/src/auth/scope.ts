// What a token may see, from the server's whoami answer. Free of React, so
// that code evaluated before React (features/fleet/earlyFleetRequests.ts)
// can use it.
import type { WhoAmIResponse } from '../api/types';

export interface Scope {
  // The signed-in token's id ('' if the server did not say).
  tokenId: string;
  role: string;
  // The team of a team token (role "team:NAME"), else null.
  team: string | null;
  // The teams a team token may read: its subtree.
  teams: string[];
}

export function scopeOf(who: WhoAmIResponse): Scope {
  const role = who.role ?? '';
  const team = role.startsWith('team:') ? role.slice('team:'.length) : null;
  return { tokenId: who.tokenId ?? '', role, team, teams: who.teams ?? [] };
}
