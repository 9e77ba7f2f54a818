// The sort, search and page of a DataTable, kept in the URL so that a view
// can be shared and survives a reload: `<key>sort=column:asc|desc`,
// `<key>q=words`, `<key>page=N` (the key keeps two tables of a page apart).
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { formatSort, pageOf, parseSort, searchRows, sortRows, type SortValue } from './tableView';

export interface TableViewOptions<T> {
  urlKey: string;
  // What a search looks in; no search box without it.
  searchText?: (row: T) => string;
  pageSize?: number;
}

interface ColumnLike<T> {
  id: string;
  sortValue?: (row: T) => SortValue;
}

export interface TableView<T> {
  rows: T[]; // the rows shown
  matched: number; // the rows the search kept
  total: number;
  page: number;
  pages: number;
  first: number;
  last: number;
  search: string | null; // null: no search box
  setSearch: (text: string) => void;
  setPage: (page: number) => void;
  sortable: ReadonlySet<string>;
  toggleSort: (column: string) => void;
  ariaSort: (column: string) => 'ascending' | 'descending' | 'none' | undefined;
  sortMark: (column: string) => string;
}

const defaultPageSize = 50;

export function useTableView<T>(rows: T[], columns: ColumnLike<T>[], view: TableViewOptions<T> | undefined): TableView<T> {
  const [params, setParams] = useSearchParams();
  const key = view?.urlKey ?? '';
  const sortable = useMemo(
    () => new Set(view ? columns.filter((c) => c.sortValue).map((c) => c.id) : []),
    [columns, view],
  );
  const sort = parseSort(params.get(`${key}sort`), sortable);
  const search = view?.searchText ? (params.get(`${key}q`) ?? '') : null;
  const pageParam = Number(params.get(`${key}page`) ?? '1');

  const matched = useMemo(() => {
    const found = search && view?.searchText ? searchRows(rows, search, view.searchText) : rows;
    const column = sort ? columns.find((c) => c.id === sort.column) : undefined;
    return sortRows(found, column?.sortValue, sort?.descending ?? false);
    // sort is a new object each render; its text is what matters.
  }, [rows, search, view, columns, sort?.column, sort?.descending]);
  const paged = view ? pageOf(matched, pageParam, view.pageSize ?? defaultPageSize) : pageOf(matched, 1, Math.max(1, matched.length));

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(`${key}${name}`);
      else next.set(`${key}${name}`, value);
    }
    setParams(next, { replace: true });
  };

  return {
    ...paged,
    matched: matched.length,
    total: rows.length,
    search,
    setSearch: (text) => update({ q: text, page: null }),
    setPage: (page) => update({ page: page > 1 ? String(page) : null }),
    sortable,
    // First click sorts figures largest first and names A to Z; the next reverses.
    toggleSort: (column) => {
      const numeric = (() => {
        const value = columns.find((c) => c.id === column)?.sortValue;
        return rows.length > 0 && value !== undefined && typeof value(rows[0] as T) !== 'string';
      })();
      const descending = sort?.column === column ? !sort.descending : numeric;
      update({ sort: formatSort({ column, descending }), page: null });
    },
    ariaSort: (column) =>
      !sortable.has(column) ? undefined : sort?.column !== column ? 'none' : sort.descending ? 'descending' : 'ascending',
    sortMark: (column) => (sort?.column !== column ? '' : sort.descending ? ' ▼' : ' ▲'),
  };
}

export function TableSearch<T>({ view, caption }: { view: TableView<T>; caption: string }) {
  if (view.search === null) return null;
  return (
    <div className="controls">
      <label>
        Search
        <input
          type="search"
          value={view.search}
          aria-label={`Search ${caption.toLowerCase()}`}
          onChange={(e) => view.setSearch(e.target.value)}
        />
      </label>
      {view.matched !== view.total && (
        <span role="status">
          {view.matched} of {view.total} rows match
        </span>
      )}
    </div>
  );
}

export function TablePager<T>({ view }: { view: TableView<T> }) {
  if (view.pages <= 1) return null;
  return (
    <nav className="controls pager" aria-label="Table pages">
      <button type="button" disabled={view.page <= 1} onClick={() => view.setPage(view.page - 1)}>
        Previous
      </button>
      <span data-testid="table-page">
        Rows {view.first}–{view.last} of {view.matched} (page {view.page} of {view.pages})
      </span>
      <button type="button" disabled={view.page >= view.pages} onClick={() => view.setPage(view.page + 1)}>
        Next
      </button>
    </nav>
  );
}
