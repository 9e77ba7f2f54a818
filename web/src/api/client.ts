// The one HTTP client of the dashboard: every call goes through apiGet /
// apiGetText / apiPost, which add the bearer token and turn failures into ApiError.
import { ApiError, kindForStatus } from './errors';
import { readToken } from './token';

export type QueryParams = Record<string, string | undefined>;

// Same origin: the dashboard is served by fleetcap-api itself.
export function apiUrl(path: string, params: QueryParams = {}): string {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') url.searchParams.set(key, value);
  }
  return url.toString();
}

async function send(
  path: string,
  params: QueryParams,
  accept: string,
  token?: string,
  body?: unknown,
): Promise<Response> {
  const bearer = token ?? readToken();
  const headers: Record<string, string> = { Accept: accept };
  if (bearer) headers['Authorization'] = `Bearer ${bearer}`;
  const init: RequestInit = { headers };
  if (body !== undefined) {
    init.method = 'POST';
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(apiUrl(path, params), init);
  } catch (cause) {
    throw new ApiError('network', 0, cause instanceof Error ? cause.message : String(cause));
  }
  if (!response.ok) {
    const retryAfterMs = retryAfter(response.headers.get('Retry-After'));
    throw new ApiError(kindForStatus(response.status), response.status, await errorDetail(response), retryAfterMs);
  }
  return response;
}

// Retry-After in whole seconds, as the gateway sends it; anything else
// (an HTTP date from a proxy, garbage) is as if it were not there.
function retryAfter(header: string | null): number | undefined {
  if (header === null || !/^\d{1,4}$/.test(header.trim())) return undefined;
  return Number(header.trim()) * 1000;
}

// The gateway answers errors as {"code", "status", "message"}; anything
// else (a proxy's HTML page) is cut short rather than shown whole.
async function errorDetail(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
      return body.message;
    }
  } catch {
    // not JSON
  }
  return text.slice(0, 200) || `HTTP ${response.status}`;
}

async function json<T>(path: string, response: Response): Promise<T> {
  try {
    return (await response.json()) as T;
  } catch (cause) {
    throw new ApiError('server', response.status, `${path}: the answer is not JSON (${String(cause)})`);
  }
}

export async function apiGet<T>(path: string, params: QueryParams = {}, token?: string): Promise<T> {
  return json<T>(path, await send(path, params, 'application/json', token));
}

// A JSON body POSTed (the API's proto3 JSON request), its JSON answer read.
export async function apiPost<T>(path: string, body: unknown): Promise<T> {
  return json<T>(path, await send(path, {}, 'application/json', undefined, body));
}

export async function apiGetText(path: string, params: QueryParams = {}): Promise<string> {
  const response = await send(path, params, 'text/*');
  return response.text();
}
