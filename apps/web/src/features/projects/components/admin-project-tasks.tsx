import type { MajorTaskSummary } from '@siteboard/shared';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../../components/ui/alert';
import { PriorityDot, StatusBadge } from '../../../components/ui/badges';
import { ShowMore } from '../../../components/ui/show-more';
import { SubtaskLink } from '../../../components/ui/subtask-link';
import { formatDate } from '../../../lib/format';
import { usePagedList } from '../../../lib/lists';
import { useNearViewport } from '../../../lib/use-near-viewport';
import { personLabel } from '../../../components/ui/person-text';
import { getMajorTaskSubtaskPagesQuery } from '../api/get-project-subtasks';

/** An ongoing project opened on the admin dashboard: a page of its major tasks and, for each, a page of its subtasks, read only. */
export function AdminProjectTasks({ project, majorTasks }: { project: { name: string }; majorTasks: MajorTaskSummary[] }) {
  const { t } = useTranslation();
  if (majorTasks.length === 0) return <p className="text-sm text-slate-600">{t('admin.projects.noMajorTasks')}</p>;
  return (
    <ul className="space-y-3 whitespace-normal" aria-label={t('admin.projects.majorTasksOf', { name: project.name })}>
      {majorTasks.map((task) => (
        <AdminMajorTask key={task.id} task={task} />
      ))}
    </ul>
  );
}

/** One major task with its subtasks, fetched once it comes near the screen: a page of twenty tasks is not twenty requests at once. */
function AdminMajorTask({ task }: { task: MajorTaskSummary }) {
  const { t } = useTranslation();
  const item = useRef<HTMLLIElement>(null);
  const near = useNearViewport(item);
  const subtasks = usePagedList(getMajorTaskSubtaskPagesQuery(task), { enabled: near && task.subtask_counts.total > 0 });
  return (
    <li ref={item} className="rounded-lg bg-white p-3 ring-1 ring-slate-200">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-semibold text-ink">{task.name}</h3>
        <span className="text-xs text-slate-600">{t('admin.projects.due', { date: formatDate(task.due_date) ?? t('common.notAvailable') })}</span>
      </div>
      {task.description && <p className="mt-1 text-sm text-slate-600">{task.description}</p>}
      {task.subtask_counts.total === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t('admin.projects.noSubtasks')}</p>
      ) : subtasks.query.isError ? (
        <div className="mt-2">
          <RetryAlert onRetry={() => void subtasks.query.refetch()} retryLabel={t('common.retry')}>
            {t('projectBoard.loadFailed')}
          </RetryAlert>
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
