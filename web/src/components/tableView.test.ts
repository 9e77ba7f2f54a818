import { formatSort, pageOf, parseSort, searchRows, sortRows } from './tableView';

const sortable = new Set(['name', 'cost']);

test('a sort in the URL is kept only for a sortable column and a known direction', () => {
  expect(parseSort('cost:desc', sortable)).toEqual({ column: 'cost', descending: true });
  expect(parseSort('name:asc', sortable)).toEqual({ column: 'name', descending: false });
  for (const text of [null, '', 'cost', 'cost:down', 'held:asc', ':asc', 'cost:desy']) {
    expect(parseSort(text, sortable)).toBeNull();
  }
  expect(formatSort({ column: 'cost', descending: true })).toBe('cost:desc');
});

test('sorting is exact on money past 2^53 and stable on ties', () => {
  const rows = [
    { name: 'b', cost: 9007199254740993n },
    { name: 'a', cost: 9007199254740992n },
    { name: 'c', cost: 9007199254740993n },
  ];
  expect(sortRows(rows, (r) => r.cost, true).map((r) => r.name)).toEqual(['b', 'c', 'a']);
  expect(sortRows(rows, (r) => r.cost, false).map((r) => r.name)).toEqual(['a', 'b', 'c']);
  expect(sortRows(rows, (r) => r.name, false).map((r) => r.name)).toEqual(['a', 'b', 'c']);
  expect(sortRows(rows, undefined, true)).toEqual(rows);
});

test('a search keeps the rows holding every word, ignoring case', () => {
  const rows = ['Pod/openb-pod-4895', 'Job/train-resnet', 'Pod/openb-pod-12'];
  expect(searchRows(rows, 'OPENB 48', (r) => r)).toEqual(['Pod/openb-pod-4895']);
  expect(searchRows(rows, '  ', (r) => r)).toEqual(rows);
  expect(searchRows(rows, 'nothing', (r) => r)).toEqual([]);
});

test('a page out of range is the nearest page; no rows is one empty page', () => {
  const rows = Array.from({ length: 120 }, (_, i) => i);
  expect(pageOf(rows, 1, 50)).toMatchObject({ page: 1, pages: 3, first: 1, last: 50 });
  expect(pageOf(rows, 3, 50)).toMatchObject({ page: 3, first: 101, last: 120, rows: rows.slice(100) });
  expect(pageOf(rows, 99, 50).page).toBe(3);
  expect(pageOf(rows, -2, 50).page).toBe(1);
  expect(pageOf(rows, Number.NaN, 50).page).toBe(1);
  expect(pageOf([], 2, 50)).toEqual({ rows: [], page: 1, pages: 1, first: 0, last: 0 });
});
