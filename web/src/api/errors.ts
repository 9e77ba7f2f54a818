// Typed API errors with a sentence a person can act on; the server's own
// message (which names the bad input and field) is kept as the detail.
export type ApiErrorKind =
  | 'unauthenticated'
  | 'forbidden'
  | 'unavailable'
  | 'busy'
  | 'network'
  | 'bad_request'
  | 'not_found'
  | 'too_large'
  | 'unimplemented'
  | 'server';

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly status: number;
  readonly detail: string;
  // The server's Retry-After: it refused the request for now (too many of
  // this token's requests running, or heavy reads) and says when to ask again.
  readonly retryAfterMs?: number;

  constructor(kind: ApiErrorKind, status: number, detail: string, retryAfterMs?: number) {
    super(messageFor(kind, detail));
    this.name = 'ApiError';
    this.kind = kind;
    this.status = status;
    this.detail = detail;
    this.retryAfterMs = retryAfterMs;
  }
}

export function kindForStatus(status: number): ApiErrorKind {
  if (status === 401) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 400) return 'bad_request';
  if (status === 413) return 'too_large';
  if (status === 429) return 'busy';
  if (status === 501) return 'unimplemented';
  if (status === 503 || status === 502 || status === 504) return 'unavailable';
  return 'server';
}

export function messageFor(kind: ApiErrorKind, detail: string): string {
  switch (kind) {
    case 'unauthenticated':
      return 'Your token was not accepted (unknown, expired or revoked). Sign in again with a valid token.';
    case 'forbidden':
      return 'Your token may not see this. A team token sees only its own team and the teams under it.';
    case 'unavailable':
      return 'The fleetcap service is unavailable right now (for example its database is down). Try again in a minute.';
    case 'busy':
      return 'The fleetcap service is busy with other requests (yours or everyone’s). Try again in a few seconds.';
    case 'network':
      return 'Could not reach the fleetcap service. Check your connection and that the service is running.';
    case 'not_found':
      return `Nothing found: ${detail}`;
    case 'bad_request':
      return `The request was refused: ${detail}`;
    case 'too_large':
      return `The answer is too large; choose a shorter time range or fewer groups. (${detail})`;
    case 'unimplemented':
      return `This fleetcap service does not offer it yet (an older version?): ${detail}`;
    case 'server':
      return `The fleetcap service failed: ${detail}`;
  }
}
