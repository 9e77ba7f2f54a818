/// <reference types="node" />
// The JSON API read straight from Node with the same token the page uses, so
// what the page shows can be held to what the API answers for the same query.

import { e2eEnv } from './env';

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

export async function apiGet<T = unknown>(path: string, token: string): Promise<ApiAnswer<T>> {
  const response = await fetch(e2eEnv().baseUrl + path, { headers: { Authorization: `Bearer ${token}` } });
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('content-type') ?? '').startsWith('application/json')) body = JSON.parse(text);
  return { status: response.status, body: body as T };
}

// The body of a 200 answer, or an error naming the path and what came back.
export async function apiOk<T = unknown>(path: string, token: string): Promise<T> {
  const answer = await apiGet<T>(path, token);
  if (answer.status !== 200) throw new Error(`GET ${path}: HTTP ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

// A JSON body POSTed as the page posts it; the answer as apiGet reads it.
export async function apiPost<T = unknown>(path: string, body: unknown, token: string): Promise<ApiAnswer<T>> {
  const response = await fetch(e2eEnv().baseUrl + path, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let answer: unknown = text;
  if ((response.headers.get('content-type') ?? '').startsWith('application/json')) answer = JSON.parse(text);
  return { status: response.status, body: answer as T };
}
