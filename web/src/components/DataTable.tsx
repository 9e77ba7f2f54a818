// A plain, accessible table on TanStack Table: pages describe columns with
// a header and a cell renderer; rows arrive already in the order to show.
import { useMemo, type ReactNode } from 'react';
import { createColumnHelper, tableFeatures, useTable, type RowData } from '@tanstack/react-table';

export interface Column<T> {
  id: string;
  header: string;
  cell: (row: T) => ReactNode;
  // Right-aligned figures.
  numeric?: boolean;
}

const features = tableFeatures({});

export function DataTable<T extends RowData>({
  caption,
  columns,
  rows,
  rowKey,
  footer,
  testId,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  // Per column id, what the totals row shows.
  footer?: Record<string, ReactNode>;
  testId?: string;
}) {
  const tableColumns = useMemo(() => {
    const helper = createColumnHelper<typeof features, T>();
    return columns.map((column) =>
      helper.display({ id: column.id, header: column.header, cell: (context) => column.cell(context.row.original) }),
    );
  }, [columns]);
  const numeric = useMemo(() => new Set(columns.filter((c) => c.numeric).map((c) => c.id)), [columns]);
  const table = useTable({ features, columns: tableColumns, data: rows, getRowId: (row) => rowKey(row) });

  return (
    <table className="data-table" data-testid={testId}>
      <caption>{caption}</caption>
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => (
              <th key={header.id} scope="col" className={numeric.has(header.column.id) ? 'num' : undefined}>
                {header.isPlaceholder ? null : <table.FlexRender header={header} />}
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
        {rows.length === 0 && (
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
  );
}
