import { Link } from 'react-router-dom';
import { ApiError } from '../api/errors';

// An API failure as a sentence; with a way to sign in again when the token is the problem.
export function ErrorMessage({ error, what }: { error: unknown; what: string }) {
  const message = error instanceof Error ? error.message : String(error);
  const unauthenticated = error instanceof ApiError && error.kind === 'unauthenticated';
  const detail = error instanceof ApiError && !['not_found', 'bad_request', 'server', 'too_large', 'unimplemented'].includes(error.kind)
    ? error.detail
    : null;
  return (
    <div role="alert" className="error" data-testid="error-message">
      <strong>Could not load {what}.</strong> {message}
      {unauthenticated && (
        <>
          {' '}
          <Link to="/signin">Sign in</Link>
        </>
      )}
      {detail && <div className="error-detail">Server said: {detail}</div>}
    </div>
  );
}
