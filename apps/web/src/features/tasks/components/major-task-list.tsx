import { can, canDecideSubtask, canManageMajorTask, PRIORITIES, subtaskParties, type MajorTaskSummary, type Subtask, type User } from '@siteboard/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListLoadFailed } from '../../../components/ui/alert';
import { Alert } from '../../../components/ui/alert';
import { PriorityDot } from '../../../components/ui/badges';
import { Button } from '../../../components/ui/button';
import { DisclosureButton } from '../../../components/ui/disclosure-button';
import { PersonText } from '../../../components/ui/person-text';
import { formatDate, formatDateTime } from '../../../lib/format';
import { ShowMore } from '../../../components/ui/show-more';
import { usePagedList, type ListSearch, type PagedListQuery } from '../../../lib/lists';
import type { Viewer } from '../tasks.rules';
import { CreateSubtaskForm } from './create-subtask-form';
import { MajorTaskActions } from './major-task-actions';
import { SubtaskTable } from './subtask-table';

export interface MajorTaskListProps {
  /** A page of the project's major tasks, their subtasks counted. */
  majorTasks: MajorTaskSummary[];
  /** An opened major task's subtasks, a page at a time. */
  subtaskPages: (majorTask: MajorTaskSummary) => PagedListQuery<Subtask>;
  /** A completed project's tasks are view-only. */
  readOnly: boolean;
  viewer: Viewer;
  /** The server's search for the assignee list. */
  findAssignees: ListSearch<User>;
}

/** A project's major tasks, each opening to its details, its subtasks (fetched then) and a form to add one. */
export function MajorTaskList(props: MajorTaskListProps) {
  const { t } = useTranslation();
  if (props.majorTasks.length === 0) return <p className="px-1 py-2 text-sm text-slate-500">{t('taskBoard.noMajorTasks')}</p>;
  return (
    <ul className="space-y-3">
      {props.majorTasks.map((majorTask) => (
        <MajorTaskItem key={majorTask.id} majorTask={majorTask} {...props} />
      ))}
    </ul>
  );
}

function MajorTaskItem({ majorTask, readOnly, viewer, findAssignees, subtaskPages }: MajorTaskListProps & { majorTask: MajorTaskSummary }) {
  const { t } = useTranslation();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState(false);
  const counts = majorTask.subtask_counts;
  const progress = { completed: counts.completed, total: counts.total };
  const mayCreate = !readOnly && can(viewer.role, 'subtasks:create');
  const mayManage = !readOnly && canManageMajorTask(viewer, { createdById: majorTask.created_by?.id ?? null, projectManagerId: majorTask.project.manager_id });
  const na = t('common.notAvailable');

  const details = [
    { label: t('taskBoard.createdBy'), value: majorTask.created_by ? <PersonText person={majorTask.created_by} /> : undefined },
    { label: t('taskBoard.createdAt'), value: formatDateTime(majorTask.created_at) },
    { label: t('taskBoard.dueDate'), value: formatDate(majorTask.due_date) },
    { label: t('taskBoard.description'), value: majorTask.description },
  ];

  return (
    <li className="rounded-xl bg-white ring-1 ring-slate-200">
      <h3>
        <DisclosureButton open={open} controls={`${id}-body`} onToggle={() => setOpen((value) => !value)} className="flex-wrap items-center gap-x-4 gap-y-2 rounded-xl px-3 py-3 sm:px-4">
          <span id={`${id}-name`} className="min-w-32 flex-1 break-words font-semibold text-ink">
            {majorTask.name}
          </span>
          <span className="flex items-center gap-3">
            {PRIORITIES.slice()
              .reverse()
              .map((priority) => (
                <PriorityDot key={priority} priority={priority} count={counts[priority]} />
              ))}
          </span>
          <span className="text-sm text-slate-600">{t('taskBoard.progress', progress)}</span>
        </DisclosureButton>
      </h3>
      {open && (
        <div id={`${id}-body`} className="space-y-5 border-t border-slate-100 px-3 pb-4 pt-3 sm:px-4">
          <section aria-labelledby={`${id}-details`}>
            <h4 id={`${id}-details`} className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500">
              {t('taskBoard.details')}
            </h4>
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
              {details.map((detail) => (
                <div key={detail.label} className="min-w-0">
                  <dt className="font-medium text-slate-500">{detail.label}</dt>
                  <dd className="break-words text-slate-800">{detail.value || na}</dd>
                </div>
              ))}
            </dl>
          </section>
          {mayManage && <MajorTaskActions majorTask={majorTask} describedBy={`${id}-name`} />}
          <section aria-labelledby={`${id}-subtasks`} className="space-y-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h4 id={`${id}-subtasks`} className="text-sm font-semibold uppercase tracking-wide text-slate-500">
                {t('taskBoard.subtasks')}
              </h4>
              {mayCreate && (
                <Button
                  variant="secondary"
                  aria-expanded={adding}
                  aria-controls={`${id}-form`}
                  onClick={() => {
                    setAdding((value) => !value);
                    setCreated(false);
                  }}
                >
                  {adding ? t('taskBoard.cancel') : t('taskBoard.createSubtask')}
                </Button>
              )}
            </div>
            {created && <Alert tone="success" focusOnShow>{t('taskBoard.subtaskCreated')}</Alert>}
            {adding && (
              <CreateSubtaskForm
                id={`${id}-form`}
                majorTaskId={majorTask.id}
                projectId={majorTask.project.id}
                projectManagerId={majorTask.project.manager_id}
                findAssignees={findAssignees}
                onCreated={() => {
                  setAdding(false);
                  setCreated(true);
                }}
              />
            )}
            <MajorTaskSubtasks query={subtaskPages(majorTask)} viewer={viewer} />
          </section>
        </div>
      )}
    </li>
  );
}

/** An opened major task's subtasks, soonest due first, a page at a time. */
function MajorTaskSubtasks({ query, viewer }: { query: PagedListQuery<Subtask>; viewer: Viewer }) {
  const { t } = useTranslation();
  const subtasks = usePagedList(query);
  if (subtasks.query.isPending) return <p className="text-sm text-slate-600" role="status">{t('app.loading')}</p>;
  // A page that could not be read is not an empty one: "No subtasks available." would say there is no work.
  if (subtasks.query.isError) {
    return (
      <ListLoadFailed onRetry={() => void subtasks.query.refetch()} />
    );
  }
  return (
    <>
      <SubtaskTable subtasks={subtasks.items} canChange={(subtask) => canDecideSubtask(viewer, subtaskParties(subtask))} />
      <ShowMore list={subtasks} />
    </>
  );
}
