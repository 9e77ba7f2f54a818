// A plain, accessible table on TanStack Table: pages describe columns with
// a header and a cell renderer; rows arrive already in the order to show.
// Given a `view`, the table also sorts by any column with a sort value,
// searches and pages, keeping those choices in the URL (useTableView).
import { useMemo, type ReactNode } from 'react';
import { createColumnHelper, tableFeatures, useTable, type RowData } from '@tanstack/react-table';
import type { SortValue } from './tableView';
import { TablePager, TableSearch, useTableView, type TableViewOptions } from './TableViewControls';

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  // Right-aligned figures.
  numeric?: boolean;
  // What the column sorts by (exact: bigint for money); without it, the
  // column does not sort.
  sortValue?: (row: T) => SortValue;
}

const features = tableFeatures({});

export function DataTable<T extends RowData>({
  caption,
  columns,
  rows,
  rowKey,
  footer,
  testId,
  view,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  // Per column id, what the totals row shows.
  footer?: Record<string, ReactNode>;
  testId?: string;
  view?: TableViewOptions<T>;
}) {
  const shown = useTableView(rows, columns, view);
  const tableColumns = useMemo(() => {
    const helper = createColumnHelper<typeof features, T>();
    return columns.map((column) =>
      helper.display({ id: column.id, header: column.header, cell: (context) => column.cell(context.row.original) }),
    );
  }, [columns]);
  const numeric = useMemo(() => new Set(columns.filter((c) => c.numeric).map((c) => c.id)), [columns]);
  const table = useTable({ features, columns: tableColumns, data: shown.rows, getRowId: (row) => rowKey(row) });

  return (
    <>
      {view && <TableSearch view={shown} caption={caption} />}
      <table className="data-table" data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => (
                <th
                  key={header.id}
                  scope="col"
                  className={numeric.has(header.column.id) ? 'num' : undefined}
                  aria-sort={shown.ariaSort(header.column.id)}
                >
                  {header.isPlaceholder ? null : shown.sortable.has(header.column.id) ? (
                    <button type="button" className="sort" onClick={() => shown.toggleSort(header.column.id)}>
                      <table.FlexRender header={header} />
                      <span aria-hidden="true">{shown.sortMark(header.column.id)}</span>
                    </button>
                  ) : (
                    <table.FlexRender header={header} />
                  )}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((cell) => (
                <td key={cell.id} className={numeric.has(cell.column.id) ? 'num' : undefined}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
          {shown.rows.length === 0 && (
            <tr>
              <td colSpan={columns.length}>No rows for this selection.</td>
            </tr>
          )}
        </tbody>
        {footer && (
          <tfoot>
            <tr>
              {columns.map((column, index) =>
                index === 0 ? (
                  <th key={column.id} scope="row">
                    {footer[column.id] ?? 'Total'}
                  </th>
                ) : (
                  <td key={column.id} className={column.numeric ? 'num' : undefined}>
                    {footer[column.id] ?? ''}
                  </td>
                ),
              )}
            </tr>
          </tfoot>
        )}
      </table>
      {view && <TablePager view={shown} />}
    </>
  );
}
