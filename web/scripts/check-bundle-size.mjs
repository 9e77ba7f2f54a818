#!/usr/bin/env node
// Fails the build when the JavaScript the first screen loads (index.html's
// entry script and the chunks it preloads) exceeds the budget, gzipped.
// Pages and echarts are lazy chunks and do not count.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const budgetBytes = 300 * 1024;
const dist = resolve(dirname(fileURLToPath(import.meta.url)), '../dist');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [
  ...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g),
  ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
].map((m) => m[1]);
if (scripts.length === 0) {
  console.error('check-bundle-size: no script in dist/index.html');
  process.exit(1);
}
let total = 0;
for (const src of new Set(scripts)) {
  const size = gzipSync(readFileSync(join(dist, src.replace(/^\//, '')))).length;
  total += size;
  console.log(`initial JS ${src}: ${(size / 1024).toFixed(1)} KB gzipped`);
}
console.log(`initial JS total: ${(total / 1024).toFixed(1)} KB gzipped (budget ${budgetBytes / 1024} KB)`);
if (total > budgetBytes) {
  console.error('check-bundle-size: the initial JavaScript is over budget; lazy-load more of it');
  process.exit(1);
}
