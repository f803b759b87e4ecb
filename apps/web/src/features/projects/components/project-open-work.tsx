import { useTranslation } from 'react-i18next';
import { useProjectOpenWork } from '../api/get-project-open-work';

/**
 * What completing a project does to each unfinished subtask, under the server's own count: its
 * status now, who has it, and that it is closed unfinished, not approved (decision record 061).
 */
export function ProjectOpenWork({ projectId, detail }: { projectId: number; detail: string }) {
  const { t } = useTranslation();
  const openWork = useProjectOpenWork(projectId);
  const shown = openWork.data ?? [];
  return (
    <div className="space-y-3">
      <p>{detail}</p>
      {openWork.isPending && <p role="status">{t('completion.loading')}</p>}
      {openWork.isError && <p role="alert">{t('completion.failed')}</p>}
      {shown.length > 0 && (
        <ul className="max-h-64 space-y-2 overflow-y-auto" aria-label={t('completion.outcome')}>
          {shown.map((subtask) => (
            <li key={subtask.id} className="rounded-lg bg-slate-50 px-3 py-2">
              <p className="break-words font-medium text-ink">{subtask.name}</p>
              <p className="break-words text-xs text-slate-600">
                {t(`status.${subtask.status}`)} · {subtask.assigned_to ? (subtask.assigned_to.full_name ?? subtask.assigned_to.email) : t('completion.unassigned')} · {t('completion.outcome')}
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
