/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dashboard is served by fleetcap-api at `/` and reads only its
// HTTP/JSON API under `/v1/` (same origin). `npm run dev` proxies /v1 to a
// local fleetcap-api (FLEETCAP_HTTP, default 127.0.0.1:8080).
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/v1': `http://${process.env.FLEETCAP_HTTP ?? '127.0.0.1:8080'}` },
  },
  // echarts is its own lazily loaded chunk (about 200 KB gzipped), never in
  // the first screen's JavaScript; the warning would only repeat that.
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 700 },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.tsx'],
    include: ['src/**/*.test.{ts,tsx}'],
    // A file's first test also pays for jsdom and the page's imports; on a busy
    // two-core machine that alone has passed the 5 s default.
    testTimeout: 20_000,
  },
});
