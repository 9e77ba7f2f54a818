// Reading what a chart drew. A canvas chart's text is pixels, but its
// tooltip is HTML: hovering it lists each series under the pointer with a
// coloured marker. An SVG chart (renderer="svg") draws its legend, labels
// and scale as <text> elements, which are read and measured as they are.

import type { Page } from 'playwright-core';
import { READY_SELECTOR } from './page';

export interface TooltipEntry {
  name: string;
  colour: string; // as the browser computes it: rgb(r, g, b)
}

// Waits for the chart named `testId` to be drawn.
export async function chartReady(page: Page, testId: string, timeoutMs = 30_000): Promise<void> {
  await page.waitForSelector(`[data-testid="${testId}"]${READY_SELECTOR}`, { timeout: timeoutMs });
}

// Hovers the chart at (xFraction, yFraction) of its box and returns the
// series its tooltip lists, each with the colour of its marker.
export async function hoverTooltip(page: Page, testId: string, xFraction = 0.7, yFraction = 0.5): Promise<TooltipEntry[]> {
  const chart = page.getByTestId(testId);
  const box = await chart.boundingBox();
  if (box === null) throw new Error(`${testId}: not on screen`);
  await page.mouse.move(box.x + box.width * xFraction - 5, box.y + box.height * yFraction);
  await page.mouse.move(box.x + box.width * xFraction, box.y + box.height * yFraction);
  const tooltip = chart.locator('.chart-tooltip');
  await tooltip.waitFor({ state: 'visible' });
  return tooltip.evaluate((element) =>
    [...element.querySelectorAll('span')]
      .filter((span) => span.style.backgroundColor !== '' && span.style.borderRadius !== '')
      .map((marker) => ({
        name: (marker.nextElementSibling?.textContent ?? '').trim(),
        colour: getComputedStyle(marker).backgroundColor,
      })),
  );
}

export interface DrawnText {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

// Every piece of text an SVG chart drew, with its box on the page.
export async function svgTexts(page: Page, testId: string): Promise<DrawnText[]> {
  return page
    .getByTestId(testId)
    .locator('svg text')
    .evaluateAll((texts) =>
      texts
        .map((text) => {
          const box = text.getBoundingClientRect();
          return { text: (text.textContent ?? '').trim(), left: box.left, top: box.top, right: box.right, bottom: box.bottom };
        })
        .filter((t) => t.text !== '' && t.right > t.left),
    );
}

// The pairs of texts whose boxes overlap by more than a pixel each way.
export function overlapping(texts: DrawnText[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      const [a, b] = [texts[i]!, texts[j]!];
      const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (across > 1 && down > 1) pairs.push(`"${a.text}" and "${b.text}"`);
    }
  }
  return pairs;
}
