/// <reference types="node" />
// A file the page saves (a blob behind a link with `download`): clicking the
// control that makes it and catching Chromium's download event, so the
// check reads the very bytes a person would get.

import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';

export interface Downloaded {
  fileName: string;
  text: string;
}

export async function downloadBy(page: Page, control: Locator, timeoutMs = 15_000): Promise<Downloaded> {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: timeoutMs }), control.click()]);
  const failure = await download.failure();
  if (failure !== null) throw new Error(`download ${download.suggestedFilename()}: ${failure}`);
  const path = await download.path();
  return { fileName: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}
