// Started by the /fleet route as navigation begins, while the page's chunk
// loads: the token's scope (whoami), then the page's main capacity series,
// then the chart library (the heatmap's series waits for the main chart to
// be drawn: FleetPage.tsx). Waiting for the page to render before asking made
// each of these wait for the one before it. echarts comes last on purpose:
// evaluating its 600 KB holds the main thread for a while, and the series
// requests should be on their way (the server working) before it does.
import type { QueryClient } from '@tanstack/react-query';
import { readToken } from '../../api/token';
import { preloadChart } from '../../components/Chart';
import { scopeOf, whoAmIQuery } from '../../auth/session';
import { rangeFromParams } from '../../time/range';
import { takeEarlyFleetRequests } from './earlyFleetRequests';
import { fleetView, seriesQuery } from './fleetView';

export async function prefetchFleet(queryClient: QueryClient, url: URL, nowMs: number): Promise<void> {
  const loadChart = preloadChart;
  const token = readToken();
  // Signed out: the page sends to sign-in and asks for nothing.
  if (token === null) return;
  // Sent before React was evaluated (a first navigation straight to /fleet):
  // their answers go to the cache under their own keys.
  const early = takeEarlyFleetRequests(token);
  if (early !== null) {
    const who = await queryClient.fetchQuery({ ...whoAmIQuery(token), queryFn: () => early.who }).catch(() => null);
    const answers = who === null ? [] : await early.series.catch(() => []);
    const series = Promise.all(answers.map(({ queryKey, answer }) => queryClient.prefetchQuery({ queryKey, queryFn: () => answer })));
    loadChart();
    await series;
    return;
  }
  // The scope decides which series the page may ask for (a team token only
  // by team), so the series wait for it; a failure is the page's to show.
  const who = await queryClient.fetchQuery(whoAmIQuery(token)).catch(() => null);
  if (who === null) return loadChart();
  const view = fleetView(url.searchParams, rangeFromParams(url.searchParams, nowMs), scopeOf(who));
  const series = queryClient.prefetchQuery(seriesQuery(view));
  loadChart();
  await series;
}
