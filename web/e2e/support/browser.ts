/// <reference types="node" />
// Debian's Chromium, headless, with a fresh profile for every launch, driven
// by playwright-core (which never downloads a browser of its own). The flags
// keep it from reaching out to the network: on a closed machine its
// background connections would otherwise fail by the dozen.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { e2eEnv } from './env';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'fleetcap-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: e2eEnv().chromium,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
