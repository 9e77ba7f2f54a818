import { Navigate, NavLink, Outlet, useLocation } from 'react-router-dom';
import { useSession } from './auth/session';
import { ErrorMessage } from './components/ErrorMessage';
import { SavedViews } from './components/SavedViews';
import { ScopeBanner } from './components/ScopeBanner';

const pages = [
  ['/fleet', 'Fleet'],
  ['/chargeback', 'Chargeback'],
  ['/assets', 'Assets'],
  ['/efficiency', 'Efficiency'],
  ['/insights', 'Insights'],
  ['/recommendations', 'Recommendations'],
  ['/planning', 'Planning'],
  ['/policy', 'Policy'],
] as const;

// The signed-in frame: navigation (keeping the time range), scope, sign-out.
export function Layout() {
  const { token, scope, scopeError, signOut } = useSession();
  const location = useLocation();
  if (token === null) return <Navigate to="/signin" replace state={{ from: location.pathname + location.search }} />;
  const range = new URLSearchParams(location.search);
  const keep = new URLSearchParams();
  for (const key of ['range', 'start', 'end']) {
    const value = range.get(key);
    if (value !== null) keep.set(key, value);
  }
  const suffix = keep.toString() ? `?${keep.toString()}` : '';
  return (
    <div className="app">
      <header>
        <span className="brand">fleetcap</span>
        <nav aria-label="Pages">
          {pages.map(([path, name]) => (
            <NavLink key={path} to={path + suffix}>
              {name}
            </NavLink>
          ))}
        </nav>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        {scope && <ScopeBanner scope={scope} />}
        {scopeError !== null && scopeError !== undefined && <ErrorMessage error={scopeError} what="your token's scope" />}
        <SavedViews />
        <Outlet />
      </main>
    </div>
  );
}
