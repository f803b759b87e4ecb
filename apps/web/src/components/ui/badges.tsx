import type { Priority, ProjectStatus, SubtaskStatus } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';

const STATUS_CLASSES: Record<SubtaskStatus | ProjectStatus, string> = {
  ongoing: 'bg-orange-100 text-orange-800',
  pending_approval: 'bg-purple-100 text-purple-800',
  completed: 'bg-green-100 text-green-800',
  planned: 'bg-sky-100 text-sky-800',
};

export function StatusBadge({ status }: { status: SubtaskStatus | ProjectStatus }) {
  const { t } = useTranslation();
  return <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_CLASSES[status]}`}>{t(`status.${status}`)}</span>;
}

/** Spec §9 (project screen): high red, medium orange, low green. */
export const PRIORITY_COLOURS: Record<Priority, string> = { high: 'bg-red-500', medium: 'bg-orange-500', low: 'bg-green-500' };

export function PriorityDot({ priority, count }: { priority: Priority; count?: number }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-center gap-1 text-xs text-slate-600">
      <span className={`h-2.5 w-2.5 rounded-full ${PRIORITY_COLOURS[priority]}`} aria-hidden />
      <span>{count === undefined ? t(`priority.${priority}`) : `${count} ${t(`priority.${priority}`)}`}</span>
    </span>
  );
}

/** Work past its due date: red text and an icon-free badge, so colour is never the only sign. */
export function OverdueBadge() {
  const { t } = useTranslation();
  return <span className="inline-flex rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">{t('account.overdue')}</span>;
}

/** Work whose assignee's account was deleted: someone should take it over. */
export function LeftBadge() {
  const { t } = useTranslation();
  return <span className="inline-flex rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-700">{t('account.assigneeLeft')}</span>;
}
