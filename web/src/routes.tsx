// Every route of the dashboard in one place; each page is its own chunk.
import type { QueryClient } from '@tanstack/react-query';
import { Navigate, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { preloadChart } from './components/Chart';
import { loadable } from './components/loadable';
import { Skeleton } from './components/Skeleton';
import { prefetchFleet } from './features/fleet/prefetchFleet';
import { Layout } from './Layout';

const page = (load: Parameters<typeof loadable<object>>[0]) => loadable(load, () => <Skeleton label="page" />);
const SignInPage = page(() => import('./features/signin/SignInPage'));
const FleetPage = page(() => import('./features/fleet/FleetPage'));
const ChargebackPage = page(() => import('./features/chargeback/ChargebackPage'));
const AssetsPage = page(() => import('./features/assets/AssetsPage'));
const EfficiencyPage = page(() => import('./features/efficiency/EfficiencyPage'));
const InsightsPage = page(() => import('./features/insights/InsightsPage'));
const RecommendationsPage = page(() => import('./features/recommendations/RecommendationsPage'));
const PlanningPage = page(() => import('./features/planning/PlanningPage'));
const PolicyPage = page(() => import('./features/policy/PolicyPage'));

// The Fleet page's chunk, data and chart library are all asked for as
// navigation starts (prefetchFleet.ts, small enough to be in the first
// chunk), rather than each after the one before; the loader does not wait
// for them, so the page renders (skeletons first) as soon as its chunk is here.
function fleetLoader(queryClient: QueryClient) {
  return ({ request }: LoaderFunctionArgs) => {
    FleetPage.preload().catch(() => undefined);
    void prefetchFleet(queryClient, new URL(request.url), Date.now());
    return null;
  };
}

// A page with a chart whose data needs no other answer first: the chart
// chunk downloads and is evaluated while the page's chunk and data load.
function chartLoader() {
  preloadChart();
  return null;
}

// What a route with a loader shows on a full load, before the router has run
// its loader for the first time (the loaders return at once, so this is one
// frame): without it the router renders nothing there and warns in the console.
const loadingPage = <Skeleton label="page" />;

export const createRoutes = (queryClient: QueryClient): RouteObject[] => [
  { path: '/signin', element: <SignInPage.Component /> },
  {
    element: <Layout />,
    children: [
      {
        path: '/fleet',
        element: <FleetPage.Component />,
        loader: fleetLoader(queryClient),
        hydrateFallbackElement: loadingPage,
      },
      { path: '/chargeback', element: <ChargebackPage.Component /> },
      { path: '/assets', element: <AssetsPage.Component /> },
      { path: '/efficiency', element: <EfficiencyPage.Component />, loader: chartLoader, hydrateFallbackElement: loadingPage },
      { path: '/insights', element: <InsightsPage.Component /> },
      { path: '/recommendations', element: <RecommendationsPage.Component /> },
      { path: '/planning', element: <PlanningPage.Component />, loader: chartLoader, hydrateFallbackElement: loadingPage },
      { path: '/policy', element: <PolicyPage.Component /> },
    ],
  },
  { path: '*', element: <Navigate to="/fleet" replace /> },
];
