import type { MajorTaskSummary } from '@siteboard/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ListLoadFailed } from '../../../components/ui/alert';
import { PriorityDot, StatusBadge } from '../../../components/ui/badges';
import { ShowMore } from '../../../components/ui/show-more';
import { SubtaskLink } from '../../../components/ui/subtask-link';
import { formatDate } from '../../../lib/format';
import { usePagedList } from '../../../lib/lists';
import { personLabel } from '../../../components/ui/person-text';
import { MAJOR_TASK_PAGE_SIZE } from '../api/get-project-major-tasks';
import { getListedMajorTaskSubtaskPagesQuery } from '../api/get-project-subtasks';

/** An ongoing project opened on the admin dashboard: a page of its major tasks and, for each, a page of its subtasks, read only. */
export function AdminProjectTasks({ project, majorTasks }: { project: { name: string }; majorTasks: MajorTaskSummary[] }) {
  const { t } = useTranslation();
  if (majorTasks.length === 0) return <p className="text-sm text-slate-600">{t('admin.projects.noMajorTasks')}</p>;
  return (
    <ul className="space-y-3 whitespace-normal" aria-label={t('admin.projects.majorTasksOf', { name: project.name })}>
      {majorTasks.map((task, index) => (
        <AdminMajorTask key={task.id} task={task} listedWith={withSubtasksOnPageOf(majorTasks, index)} />
      ))}
    </ul>
  );
}

/** The ids of the major tasks with subtasks on the same page of the list as the one at `index`: their first subtasks come in one request. */
function withSubtasksOnPageOf(majorTasks: MajorTaskSummary[], index: number): number[] {
  const start = index - (index % MAJOR_TASK_PAGE_SIZE);
  return majorTasks
    .slice(start, start + MAJOR_TASK_PAGE_SIZE)
    .filter((task) => task.subtask_counts.total > 0)
    .map((task) => task.id);
}

/** One major task with its subtasks, its first page fetched with those of the other major tasks of its page. */
function AdminMajorTask({ task, listedWith }: { task: MajorTaskSummary; listedWith: number[] }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const subtasks = usePagedList(getListedMajorTaskSubtaskPagesQuery(queryClient, task, listedWith), { enabled: task.subtask_counts.total > 0 });
  return (
    <li className="rounded-lg bg-white p-3 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold text-ink">{task.name}</h3>
        <span className="text-xs text-slate-600">{t('admin.projects.due', { date: formatDate(task.due_date) ?? t('common.notAvailable') })}</span>
      </div>
      {task.description && <p className="mt-1 text-sm text-slate-600">{task.description}</p>}
      {task.subtask_counts.total === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('admin.projects.noSubtasks')}</p>
      ) : subtasks.query.isError ? (
        <div className="mt-2">
          <ListLoadFailed onRetry={() => void subtasks.query.refetch()} />
        </div>
      ) : subtasks.query.isPending ? (
        <p className="mt-2 text-sm text-slate-600">{t('app.loading')}</p>
      ) : (
        <>
          <ul className="mt-2 divide-y divide-slate-100">
            {subtasks.items.map((subtask) => (
              <li key={subtask.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 py-2 text-sm">
                <span className="min-w-40 flex-1">
                  <SubtaskLink subtask={subtask} />
                </span>
                <span className="text-slate-600">{subtask.assigned_to ? personLabel(subtask.assigned_to) : t('common.notAvailable')}</span>
                <span className="text-slate-600">{formatDate(subtask.due_date) ?? t('common.notAvailable')}</span>
                <PriorityDot priority={subtask.priority} />
                <StatusBadge status={subtask.status} />
              </li>
            ))}
          </ul>
          <ShowMore list={subtasks} />
        </>
      )}
    </li>
  );
}
