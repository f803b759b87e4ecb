import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways inside its card on phones instead of widening the page.
 * `empty` is shown as one full-width row when there are no rows.
 */
export function Table({ columns, children, empty, isEmpty, label }: { columns: ReactNode[]; children: ReactNode; empty: ReactNode; isEmpty: boolean; label: string }) {
  return (
    <div className="overflow-x-auto rounded-xl ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 bg-white text-left text-sm" aria-label={label}>
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className="whitespace-nowrap px-4 py-3">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {isEmpty ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-6 text-center text-slate-500">
                {empty}
              </td>
            </tr>
          ) : (
            children
          )}
        </tbody>
      </table>
    </div>
  );
}

export const cellClass = 'whitespace-nowrap px-4 py-3 text-slate-700';
