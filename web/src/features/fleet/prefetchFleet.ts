// Started by the /fleet route as navigation begins, before the page's chunk
// and echarts have loaded: the token's scope (whoami), then the page's two
// capacity series, and the chart library. Waiting for the page to render
// before asking made each of these wait for the one before it.
import type { QueryClient } from '@tanstack/react-query';
import { readToken } from '../../api/token';
import { scopeOf, whoAmIQuery } from '../../auth/session';
import { rangeFromParams } from '../../time/range';
import { fleetView, heatQuery, seriesQuery } from './fleetView';

export async function prefetchFleet(queryClient: QueryClient, url: URL, nowMs: number): Promise<void> {
  void import('../../components/EChart');
  const token = readToken();
  // Signed out: the page sends to sign-in and asks for nothing.
  if (token === null) return;
  // The scope decides which series the page may ask for (a team token only
  // by team), so the series wait for it; a failure is the page's to show.
  const who = await queryClient.fetchQuery(whoAmIQuery(token)).catch(() => null);
  if (who === null) return;
  const view = fleetView(url.searchParams, rangeFromParams(url.searchParams, nowMs), scopeOf(who));
  await Promise.all([queryClient.prefetchQuery(seriesQuery(view)), queryClient.prefetchQuery(heatQuery(view))]);
}
