// Reading a paged table (DataTable with a view: 50 rows a page) in full: what
// a check finds on every page, page after page, then back on the first.

import type { Page } from 'playwright-core';

// What `read` finds on every page of the table, page after page (its
// pager's Next until the last), then back on the first page.
export async function onEveryPage<T>(page: Page, read: () => Promise<T[]>): Promise<T[]> {
  const found = await read();
  const pager = page.getByRole('navigation', { name: 'Table pages' });
  if ((await pager.count()) === 0) return found;
  const turn = async (name: 'Next' | 'Previous') => {
    const before = await page.getByTestId('table-page').innerText();
    await pager.getByRole('button', { name }).click();
    await expect.poll(() => page.getByTestId('table-page').innerText()).not.toBe(before);
  };
  let pages = 1;
  while (await pager.getByRole('button', { name: 'Next' }).isEnabled()) {
    await turn('Next');
    found.push(...(await read()));
    pages += 1;
  }
  expect(await page.getByTestId('table-page').innerText()).toContain(`page ${pages} of ${pages}`);
  while (await pager.getByRole('button', { name: 'Previous' }).isEnabled()) await turn('Previous');
  return found;
}

// The figures of every row of the chargeback table, on every page, as
// [data-testid, data-value] pairs.
export function everyPagesFigures(page: Page): Promise<string[][]> {
  return onEveryPage(page, () =>
    page
      .getByTestId('chargeback-table')
      .locator('[data-testid^="chargeback-row-"]')
      .evaluateAll((els) => els.map((e) => [e.getAttribute('data-testid') ?? '', e.getAttribute('data-value') ?? ''])),
  );
}
