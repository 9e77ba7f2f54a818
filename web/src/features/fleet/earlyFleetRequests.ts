// The Fleet page's first requests, sent while the entry chunk is still being
// evaluated: main.tsx imports this module before React, so on a direct
// navigation to /fleet the token's scope (whoami) and then the page's main
// capacity series are on their way while React, the router, the page's chunk
// and echarts load. The route's prefetch (prefetchFleet.ts) hands the answers
// to the query cache under the keys the page asks for. The heatmap's series
// is not among them: the page asks for it once the main chart is drawn, so
// that it competes neither for the server nor for the main thread.
// Free of React on purpose: importing it must not evaluate React first.
import { whoAmI } from '../../api/endpoints';
import { readToken } from '../../api/token';
import type { CapacitySeries, WhoAmIResponse } from '../../api/types';
import { scopeOf } from '../../auth/scope';
import { rangeFromParams } from '../../time/range';
import { fleetView, seriesQuery } from './fleetView';

export interface EarlyAnswer<T> {
  queryKey: readonly unknown[];
  answer: Promise<T>;
}

export interface EarlyFleetRequests {
  token: string;
  who: Promise<WhoAmIResponse>;
  series: Promise<EarlyAnswer<CapacitySeries>[]>;
}

let early: EarlyFleetRequests | null = null;

// Every promise here gets a handler at once: a failure is the page's to show
// (through its own query), never an unhandled rejection on the console.
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

export function startEarlyFleetRequests(location: { pathname: string; search: string }, nowMs: number): void {
  if (location.pathname !== '/fleet') return;
  const token = readToken();
  if (token === null) return;
  const who = handled(whoAmI());
  const series = handled(
    who.then((answer) => {
      const params = new URLSearchParams(location.search);
      const view = fleetView(params, rangeFromParams(params, nowMs), scopeOf(answer));
      return [seriesQuery(view)].map(({ queryKey, queryFn }) => ({ queryKey, answer: handled(queryFn()) }));
    }),
  );
  early = { token, who, series };
}

// The early requests made with `token`, once: a later navigation asks anew.
export function takeEarlyFleetRequests(token: string): EarlyFleetRequests | null {
  const taken = early !== null && early.token === token ? early : null;
  early = null;
  return taken;
}
