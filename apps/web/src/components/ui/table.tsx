import type { ReactNode } from 'react';

/**
 * Below `md`, a `stackOnPhone` table shows each row as a card: every cell on its own line, named
 * by its `data-label` (cells without one, like a row's title or its buttons, take the full width).
 */
const STACKED = {
  wrapper: 'max-md:overflow-visible max-md:ring-0',
  table: 'max-md:block max-md:divide-y-0 max-md:bg-transparent',
  head: 'max-md:hidden',
  body: [
    'max-md:block max-md:space-y-3 max-md:divide-y-0',
    // A card is a two-column grid its labelled cells share (subgrid): the labels' column is as wide as
    // the card's longest label up to 45 % of it, so a long one ("Fertigstellung", "Fecha de término")
    // wraps or widens the column instead of running into its value, and the values still line up.
    'max-md:[&>tr]:grid max-md:[&>tr]:grid-cols-[fit-content(45%)_minmax(0,1fr)] max-md:[&>tr]:gap-x-3 max-md:[&>tr]:rounded-xl max-md:[&>tr]:py-2 max-md:[&>tr]:ring-1 max-md:[&>tr]:ring-slate-200',
    'max-md:[&>tr>*]:col-span-2 max-md:[&>tr>*]:block max-md:[&>tr>*]:px-4 max-md:[&>tr>*]:py-1.5',
    'max-md:[&>tr>[data-label]]:grid max-md:[&>tr>[data-label]]:grid-cols-subgrid max-md:[&>tr>[data-label]]:items-center',
    'max-md:[&>tr>[data-label]]:before:whitespace-normal max-md:[&>tr>[data-label]]:before:text-xs max-md:[&>tr>[data-label]]:before:font-semibold max-md:[&>tr>[data-label]]:before:uppercase max-md:[&>tr>[data-label]]:before:tracking-wide max-md:[&>tr>[data-label]]:before:text-slate-500 max-md:[&>tr>[data-label]]:before:content-[attr(data-label)]',
    // A labelled cell with nothing in it (no action left on a task sent for approval) says nothing on a card.
    'max-md:[&>tr>[data-label]:empty]:hidden',
  ].join(' '),
};

/**
 * A table that scrolls sideways inside its card on phones instead of widening the page, or with
 * `stackOnPhone` turns into cards there. `empty` is shown as one full-width row when there are no rows.
 */
export function Table({
  columns,
  children,
  empty,
  isEmpty,
  label,
  stackOnPhone = false,
}: {
  columns: ReactNode[];
  children: ReactNode;
  empty: ReactNode;
  isEmpty: boolean;
  label: string;
  stackOnPhone?: boolean;
}) {
  const stacked = (classes: string) => (stackOnPhone ? classes : '');
  return (
    // `relative`: screen-reader-only text in a cell is absolutely positioned; without a positioned
    // ancestor inside the scroller it would widen the page instead of scrolling with the table.
    <div className={`relative overflow-x-auto rounded-xl ring-1 ring-slate-200 ${stacked(STACKED.wrapper)}`}>
      <table className={`min-w-full divide-y divide-slate-200 bg-white text-left text-sm ${stacked(STACKED.table)}`} aria-label={label}>
        <thead className={`bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600 ${stacked(STACKED.head)}`}>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className="px-3 py-3">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className={`divide-y divide-slate-100 ${stacked(STACKED.body)}`}>
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

export const cellClass = 'whitespace-nowrap px-3 py-3 text-slate-700';
/** For text that may wrap (names, descriptions, e-mails) so a wide table still fits a laptop screen. */
export const wrapCellClass = 'px-3 py-3 text-slate-700';
/** The last cell of a row with its buttons: from `md` up it stays in view at the right while the table scrolls sideways. */
export const actionsCellClass = 'whitespace-nowrap bg-inherit px-3 py-3 md:sticky md:right-0 md:shadow-[-6px_0_6px_-6px_rgb(15_23_42/0.2)]';
