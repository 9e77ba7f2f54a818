// The built app as fleetcap-api serves it (--web-root web/dist): the page and
// its client-side routes, long-lived hashed assets, and the API behind it
// still asking for a token.

import { e2eEnv } from './support/env';
import { PAGES } from './support/pages';

const base = () => e2eEnv().baseUrl;

test('the app and its client-side routes are the same revalidated index.html', async () => {
  const root = await fetch(base() + '/');
  expect(root.status).toBe(200);
  expect(root.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(root.headers.get('cache-control')).toBe('no-cache');
  const index = await root.text();
  expect(index).toMatch(/<div id="root">/);
  for (const page of ['signin', ...PAGES]) {
    const route = await fetch(`${base()}/${page}?range=7d`);
    expect(route.status, page).toBe(200);
    expect(await route.text(), page).toBe(index);
  }
});

test('every script and stylesheet index.html names is served as immutable with its type', async () => {
  const index = await (await fetch(base() + '/')).text();
  const assets = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] as string);
  expect(assets.length).toBeGreaterThan(0);
  for (const asset of assets) {
    const response = await fetch(base() + asset);
    expect(response.status, asset).toBe(200);
    expect(response.headers.get('cache-control'), asset).toBe('public, max-age=31536000, immutable');
    const type = asset.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8';
    expect(response.headers.get('content-type'), asset).toBe(type);
  }
  expect((await fetch(base() + '/assets/no-such-chunk.js')).status).toBe(404);
});

test('the API behind the page still needs a token', async () => {
  expect((await fetch(base() + '/v1/tokens/self')).status).toBe(401);
  expect((await fetch(base() + '/v1/fleet/summary')).status).toBe(401);
});
