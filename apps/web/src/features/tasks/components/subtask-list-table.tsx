import { isOverdue, type Subtask } from '@siteboard/shared';
import { Fragment, useId, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LeftBadge, OverdueBadge, PriorityDot, StatusBadge } from '../../../components/ui/badges';
import { PersonText } from '../../../components/ui/person-text';
import { ShowMore } from '../../../components/ui/show-more';
import { SubtaskLink } from '../../../components/ui/subtask-link';
import { cellClass, Table } from '../../../components/ui/table';
import { formatDate, readerToday } from '../../../lib/format';
import type { PagedList } from '../../../lib/lists';
import { asItWillBe, useWaitingSubtasks, type WaitingOnSubtask } from './waiting-subtasks';

export type SubtaskColumn = 'project' | 'majorTask' | 'subtaskTitle' | 'title' | 'assignee' | 'teamMember' | 'dueDate' | 'priority' | 'status';

/** Names may be long: they wrap, so the table fits its card more often and scrolls less. */
const wrapCellClass = 'min-w-32 max-w-64 break-words px-4 py-3 text-slate-700';

/** A cell's value; `nameId` is the id the subtask's name takes in this row. */
const COLUMNS: Record<SubtaskColumn, { header: string; value: (subtask: Subtask, nameId: string) => ReactNode; wrap?: boolean }> = {
  project: { header: 'taskBoard.column.project', value: (subtask) => subtask.major_task?.project?.name, wrap: true },
  majorTask: { header: 'taskBoard.column.majorTask', value: (subtask) => subtask.major_task?.name, wrap: true },
  subtaskTitle: { header: 'taskBoard.column.subtaskTitle', value: (subtask, nameId) => <SubtaskTitle subtask={subtask} nameId={nameId} />, wrap: true },
  title: { header: 'taskBoard.column.title', value: (subtask, nameId) => <SubtaskTitle subtask={subtask} nameId={nameId} />, wrap: true },
  assignee: { header: 'taskBoard.column.assignee', value: (subtask) => subtask.assigned_to && <Assignee subtask={subtask} /> },
  teamMember: { header: 'taskBoard.column.teamMember', value: (subtask) => subtask.assigned_to && <Assignee subtask={subtask} /> },
  dueDate: { header: 'taskBoard.column.dueDate', value: (subtask) => subtask.due_date && <DueDate subtask={subtask} /> },
  priority: { header: 'taskBoard.column.priority', value: (subtask) => subtask.priority && <PriorityDot priority={subtask.priority} /> },
  status: { header: 'taskBoard.column.status', value: (subtask) => subtask.status && <StatusBadge status={subtask.status} /> },
};

/** Who the subtask is assigned to (name, e-mail below), marked when their account was deleted. */
function Assignee({ subtask }: { subtask: Subtask }) {
  if (!subtask.assigned_to) return null;
  return (
    <span className="inline-flex flex-col items-start gap-1">
      <PersonText person={subtask.assigned_to} />
      {subtask.assignee_left && <LeftBadge />}
    </span>
  );
}

/** The due date, with an Overdue badge while the work is late. */
function DueDate({ subtask }: { subtask: Subtask }) {
  if (!subtask.due_date) return null;
  const overdue = isOverdue(subtask, readerToday());
  return (
    <span className={`inline-flex flex-wrap items-center gap-1.5 ${overdue ? 'font-semibold text-red-700' : ''}`}>
      {formatDate(subtask.due_date)}
      {overdue && <OverdueBadge />}
    </span>
  );
}

/** A subtask's name, opening it; a declined one says why beside it. */
function SubtaskTitle({ subtask, nameId }: { subtask: Subtask; nameId: string }) {
  const { t } = useTranslation();
  return (
    <span className="flex flex-col gap-1">
      <SubtaskLink subtask={subtask} nameId={nameId} />
      {subtask.decline_reason && <span className="text-xs text-red-700">{t('record.declinedBecause', { reason: subtask.decline_reason })}</span>}
    </span>
  );
}

const waitingBadgeClass = 'inline-flex rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-800 ring-1 ring-amber-300';

/** Marks a row whose status change waits for the connection: what it shows is not yet what the server has. */
function WaitingToSync() {
  const { t } = useTranslation();
  return <span className={waitingBadgeClass}>{t('offline.status.waiting')}</span>;
}

/** Names what else waits for the connection on a row (a comment, photos): added here, not yet on the server. */
function OthersWaiting({ others }: { others: WaitingOnSubtask['others'] }) {
  const { t } = useTranslation();
  const what = [...others].map(([kind, count]) => (count > 1 ? `${t(`offline.write.${kind}`)} (${count})` : t(`offline.write.${kind}`))).join(', ');
  return <span className={waitingBadgeClass}>{t('offline.othersWaiting', { what })}</span>;
}

export interface SubtaskAction {
  header: string;
  /**
   * The row's buttons. `describedBy` is the id of the subtask's name in the row (undefined in a list
   * without it): the buttons' own names stay the spec's ("Approve Task" on every row), and a screen
   * reader tells one row's from the next by the description.
   */
  render: (subtask: Subtask, describedBy: string | undefined) => ReactNode;
}

/**
 * A list of subtasks with the columns each screen names and "N/A" where a value is missing: a
 * table from small tablets up, a card per subtask on phones (nothing to scroll sideways). A
 * paged list (`more`) gets its Show More / Show Less below.
 */
export function SubtaskListTable({
  subtasks,
  columns,
  label,
  empty,
  action,
  more,
}: {
  subtasks: Subtask[];
  columns: SubtaskColumn[];
  label: string;
  empty: string;
  action?: SubtaskAction;
  more?: PagedList;
}) {
  const { t } = useTranslation();
  const na = t('common.notAvailable');
  const listId = useId();
  const waiting = useWaitingSubtasks();
  const shown = useMemo(() => subtasks.map((subtask) => asItWillBe(subtask, waiting)), [subtasks, waiting]);
  // A row whose status change is still on this device says so in its action cell (no buttons
  // meanwhile: the change is made), or beside its status when the list has no actions. Anything else
  // waiting (a comment, photos) leaves the buttons and is named beside them.
  // Each row is drawn twice (a card, a table row): its name has an id in each.
  const named = columns.includes('title') || columns.includes('subtaskTitle');
  const nameIdOf = (subtask: Subtask, drawing: 'card' | 'row') => `${listId}-${drawing}-${subtask.id}-name`;
  const marks = (subtask: Subtask) => {
    const on = waiting.get(subtask.id);
    if (!on) return [];
    // A waiting status change says it for the row: the photos and note sent with it are part of it.
    if (on.statusChange) return [<WaitingToSync key="status" />];
    return on.others.size > 0 ? [<OthersWaiting key="others" others={on.others} />] : [];
  };
  const actionOf = (subtask: Subtask, nameId: string) => {
    const on = waiting.get(subtask.id);
    if (on?.statusChange) return <span className="inline-flex flex-wrap items-center gap-1.5">{marks(subtask)}</span>;
    const buttons = action?.render(subtask, named ? nameId : undefined);
    if (!on) return buttons;
    return (
      <span className="inline-flex flex-col items-start gap-1.5">
        {buttons}
        {marks(subtask)}
      </span>
    );
  };
  const valueOf = (subtask: Subtask, column: SubtaskColumn, nameId: string) =>
    column === 'status' && !action && waiting.has(subtask.id) ? (
      <span className="inline-flex flex-wrap items-center gap-1.5">
        {COLUMNS.status.value(subtask, nameId)}
        {marks(subtask)}
      </span>
    ) : (
      COLUMNS[column].value(subtask, nameId)
    );
  const fields = (subtask: Subtask, drawing: 'card' | 'row') => {
    const nameId = nameIdOf(subtask, drawing);
    return [
      ...columns.map((column) => ({ key: column, header: t(COLUMNS[column].header), value: valueOf(subtask, column, nameId) || na, wrap: COLUMNS[column].wrap })),
      ...(action ? [{ key: 'action', header: action.header, value: actionOf(subtask, nameId), wrap: false }] : []),
    ];
  };
  const cardFields = (subtask: Subtask) => fields(subtask, 'card');
  const rowFields = (subtask: Subtask) => fields(subtask, 'row');
  const headers = [...columns.map((column) => t(COLUMNS[column].header)), ...(action ? [action.header] : [])];

  return (
    <>
      <ul aria-label={label} className="space-y-3 sm:hidden">
        {subtasks.length === 0 ? (
          <li className="rounded-xl bg-white p-4 text-center text-sm text-slate-500 ring-1 ring-slate-200">{empty}</li>
        ) : (
          shown.map((subtask) => (
            <li key={subtask.id} className="rounded-xl bg-white p-3 ring-1 ring-slate-200">
              <dl className="grid grid-cols-[minmax(5.5rem,auto)_1fr] items-center gap-x-3 gap-y-2 text-sm">
                {/* A field with nothing to show (no action left once the task is sent) is left off the card, label and all. */}
                {cardFields(subtask)
                  .filter((field) => field.value !== null && field.value !== undefined && field.value !== false)
                  .map((field) => (
                    <Fragment key={field.key}>
                      <dt className="font-medium text-slate-500">{field.header}</dt>
                      <dd className="min-w-0 break-words text-slate-800">{field.value}</dd>
                    </Fragment>
                  ))}
              </dl>
            </li>
          ))
        )}
      </ul>
      <div className="hidden sm:block">
        <Table label={label} columns={headers} isEmpty={subtasks.length === 0} empty={empty}>
          {shown.map((subtask) => (
            <tr key={subtask.id}>
              {rowFields(subtask).map((field) => (
                <td key={field.key} className={field.wrap ? wrapCellClass : cellClass}>
                  {field.value}
                </td>
              ))}
            </tr>
          ))}
        </Table>
      </div>
      {more && <ShowMore list={more} />}
    </>
  );
}
