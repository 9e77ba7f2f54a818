// Every route of the dashboard in one place; each page is its own chunk.
import { lazy } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Navigate, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { prefetchFleet } from './features/fleet/prefetchFleet';
import { Layout } from './Layout';

const SignInPage = lazy(() => import('./features/signin/SignInPage'));
const loadFleetPage = () => import('./features/fleet/FleetPage');
const FleetPage = lazy(loadFleetPage);
const ChargebackPage = lazy(() => import('./features/chargeback/ChargebackPage'));
const EfficiencyPage = lazy(() => import('./features/efficiency/EfficiencyPage'));
const RecommendationsPage = lazy(() => import('./features/recommendations/RecommendationsPage'));
const PlanningPage = lazy(() => import('./features/planning/PlanningPage'));
const PolicyPage = lazy(() => import('./features/policy/PolicyPage'));

// The Fleet page's chunk, data and chart library are all asked for as
// navigation starts (prefetchFleet.ts, small enough to be in the first
// chunk), rather than each after the one before; the loader does not wait
// for them, so the page renders (skeletons first) as soon as its chunk is here.
function fleetLoader(queryClient: QueryClient) {
  return ({ request }: LoaderFunctionArgs) => {
    void loadFleetPage();
    void prefetchFleet(queryClient, new URL(request.url), Date.now());
    return null;
  };
}

// A page with a chart whose data needs no other answer first: the chart
// chunk downloads and is evaluated while the page's chunk and data load.
function preloadChart() {
  void import('./components/EChart');
  return null;
}

export const createRoutes = (queryClient: QueryClient): RouteObject[] => [
  { path: '/signin', element: <SignInPage /> },
  {
    element: <Layout />,
    children: [
      { path: '/fleet', element: <FleetPage />, loader: fleetLoader(queryClient) },
      { path: '/chargeback', element: <ChargebackPage /> },
      { path: '/efficiency', element: <EfficiencyPage />, loader: preloadChart },
      { path: '/recommendations', element: <RecommendationsPage /> },
      { path: '/planning', element: <PlanningPage />, loader: preloadChart },
      { path: '/policy', element: <PolicyPage /> },
    ],
  },
  { path: '*', element: <Navigate to="/fleet" replace /> },
];
