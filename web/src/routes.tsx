// Every route of the dashboard in one place; each page is its own chunk.
import { lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { Layout } from './Layout';

const SignInPage = lazy(() => import('./features/signin/SignInPage'));
const FleetPage = lazy(() => import('./features/fleet/FleetPage'));
const ChargebackPage = lazy(() => import('./features/chargeback/ChargebackPage'));
const EfficiencyPage = lazy(() => import('./features/efficiency/EfficiencyPage'));
const RecommendationsPage = lazy(() => import('./features/recommendations/RecommendationsPage'));
const PolicyPage = lazy(() => import('./features/policy/PolicyPage'));

export const routes: RouteObject[] = [
  { path: '/signin', element: <SignInPage /> },
  {
    element: <Layout />,
    children: [
      { path: '/fleet', element: <FleetPage /> },
      { path: '/chargeback', element: <ChargebackPage /> },
      { path: '/efficiency', element: <EfficiencyPage /> },
      { path: '/recommendations', element: <RecommendationsPage /> },
      { path: '/policy', element: <PolicyPage /> },
    ],
  },
  { path: '*', element: <Navigate to="/fleet" replace /> },
];
