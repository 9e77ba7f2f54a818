// What a table shows of its rows: sorted by a column, filtered by a search,
// one page of them. Pure functions over the rows, so that the totals a page
// shows stay those of every row, whatever the view.

export type SortValue = bigint | number | string;

export interface SortState {
  column: string;
  descending: boolean;
}

// `column:asc|desc` as the URL holds it; null when absent or not a sortable column.
export function parseSort(text: string | null, sortable: ReadonlySet<string>): SortState | null {
  if (!text) return null;
  const [column = '', direction = ''] = text.split(':');
  if (!sortable.has(column) || (direction !== 'asc' && direction !== 'desc')) return null;
  return { column, descending: direction === 'desc' };
}

export const formatSort = (sort: SortState): string => `${sort.column}:${sort.descending ? 'desc' : 'asc'}`;

function compare(a: SortValue, b: SortValue): number {
  if (typeof a === 'string' || typeof b === 'string') return String(a).localeCompare(String(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

// A stable sort: rows equal in the column keep the order they came in.
export function sortRows<T>(rows: readonly T[], value: ((row: T) => SortValue) | undefined, descending: boolean): T[] {
  if (!value) return [...rows];
  return rows
    .map((row, index) => ({ row, index, key: value(row) }))
    .sort((x, y) => (descending ? compare(y.key, x.key) : compare(x.key, y.key)) || x.index - y.index)
    .map((entry) => entry.row);
}

// The rows whose text holds every word of the search, ignoring case.
export function searchRows<T>(rows: readonly T[], search: string, text: (row: T) => string): T[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((row) => {
    const haystack = text(row).toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

export interface Paged<T> {
  rows: T[];
  page: number; // 1-based, within 1..pages
  pages: number;
  first: number; // 1-based position of the first row shown; 0 when none
  last: number;
}

export function pageOf<T>(rows: readonly T[], page: number, size: number): Paged<T> {
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const current = Math.min(Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1), pages);
  const from = (current - 1) * size;
  const shown = rows.slice(from, from + size);
  return { rows: shown, page: current, pages, first: shown.length ? from + 1 : 0, last: from + shown.length };
}
