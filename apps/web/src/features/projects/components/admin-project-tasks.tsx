import type { ExpandedProject } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';
import { PriorityDot, StatusBadge } from '../../../components/ui/badges';
import { SubtaskLink } from '../../../components/ui/subtask-link';
import { formatDate } from '../../../lib/format';
import { personLabel } from '../../../components/ui/person-text';

/** An ongoing project opened on the admin dashboard: its major tasks and their subtasks, read only. */
export function AdminProjectTasks({ project }: { project: ExpandedProject }) {
  const { t } = useTranslation();
  if (project.major_tasks.length === 0) return <p className="text-sm text-slate-600">{t('admin.projects.noMajorTasks')}</p>;
  return (
    <ul className="space-y-3 whitespace-normal" aria-label={t('admin.projects.majorTasksOf', { name: project.name })}>
      {project.major_tasks.map((task) => (
        <li key={task.id} className="rounded-lg bg-white p-3 ring-1 ring-slate-200">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="font-semibold text-ink">{task.name}</h3>
            <span className="text-xs text-slate-600">{t('admin.projects.due', { date: formatDate(task.due_date) ?? t('common.notAvailable') })}</span>
          </div>
          {task.description && <p className="mt-1 text-sm text-slate-600">{task.description}</p>}
          {task.subtasks.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">{t('admin.projects.noSubtasks')}</p>
          ) : (
            <ul className="mt-2 divide-y divide-slate-100">
              {task.subtasks.map((subtask) => (
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
          )}
        </li>
      ))}
    </ul>
  );
}
