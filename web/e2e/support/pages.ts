// The dashboard's pages (web/src/routes.tsx) and the selectors the checks
// use, in one place: page-specific checks name their elements by the
// data-testid values listed in docs/dashboard.md.

export const PAGES = ['fleet', 'chargeback', 'assets', 'efficiency', 'insights', 'recommendations', 'planning', 'policy'] as const;
export type PageName = (typeof PAGES)[number];

export const SIGN_IN = {
  path: '/signin',
  // The sign-in form: a token field and its button, found by their accessible names.
  tokenLabel: /token/i,
  submitName: /sign in/i,
};

// The Fleet page's main chart (capacity vs held vs used), whose ready marker
// ends the "ready within 1 s of navigation" measurement.
export const FLEET_MAIN_CHART = 'fleet-capacity-chart';
