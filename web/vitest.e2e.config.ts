import { defineConfig } from 'vitest/config';

// The end-to-end run (`npm run e2e`): Node drives Debian's Chromium through
// playwright-core against a real fleetcap-api serving the built app. Started
// by tests/web/web_e2e.sh (ctest's web_e2e_test), which sets FLEETCAP_E2E_*
// (see e2e/support/env.ts). One file at a time: the machine has two cores and
// each file starts its own browser.
export default defineConfig({
  test: {
    environment: 'node',
    globals: true,
    include: ['e2e/**/*.e2e.ts'],
    fileParallelism: false,
    // A check runs in a minute; opening a relative range, it may first wait
    // up to a minute for the hour to turn (e2e/support/page.ts, `go`).
    testTimeout: 120_000,
    hookTimeout: 60_000,
    reporters: ['verbose'],
  },
});
