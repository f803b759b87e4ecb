import type { WorkItem, WorkKind } from '@siteboard/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PhotoStrip } from '../../../components/ui/photos';
import { formatDateTime } from '../../../lib/format';

const KIND_TONE: Record<WorkKind, string> = {
  sent_for_approval: 'bg-purple-100 text-purple-800',
  approved: 'bg-green-100 text-green-800',
  declined: 'bg-red-100 text-red-800',
  completed: 'bg-green-100 text-green-800',
  photo: 'bg-sky-100 text-sky-800',
};

/**
 * The day's work as the record has it: what happened to which subtask, who did it and when, what
 * they said, the photo. `controls` adds the manager's own word on an entry (left out, a comment);
 * without it, what the manager left out is not shown. Empty, it says so of the subtasks, and
 * points to the log's own photos when it has some (`logHasPhotos`): not "nothing photographed"
 * right below a photo just added.
 */
export function DayWork({ work, controls, logHasPhotos = false }: { work: WorkItem[]; controls?: (item: WorkItem, index: number) => ReactNode; logHasPhotos?: boolean }) {
  const { t } = useTranslation();
  const shown = controls ? work : work.filter((item) => !item.excluded);
  if (shown.length === 0) return <p className="text-sm text-slate-500">{t(logHasPhotos ? 'dailyLog.work.noneButLogPhotos' : 'dailyLog.work.none')}</p>;
  return (
    <ol className="space-y-3" aria-label={t('dailyLog.section.work')}>
      {shown.map((item) => (
        <li key={item.activity_id} className={`rounded-xl p-3 ring-1 ring-slate-200 ${item.excluded ? 'bg-slate-50' : 'bg-white'}`}>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${KIND_TONE[item.kind]}`}>{t(`dailyLog.work.${item.kind}`)}</span>
            <span className="min-w-0 break-words font-medium text-slate-900">{item.subtask.name}</span>
            <span className="text-slate-500">({item.subtask.major_task.name})</span>
          </div>
          <p className="mt-1 text-xs text-slate-600">
            {item.actor ? (item.actor.full_name ?? item.actor.email) : t('dailyLog.work.system')} · {formatDateTime(item.at)}
          </p>
          {item.note && <p className="mt-1 break-words text-sm text-slate-700">{item.note}</p>}
          {!controls && item.manager_comment && <p className="mt-1 break-words text-sm text-brand-800">{t('dailyLog.work.managerComment', { comment: item.manager_comment })}</p>}
          {item.attachment && (
            <div className="mt-2">
              <PhotoStrip photos={[item.attachment]} subject={item.subtask.name} />
            </div>
          )}
          {controls?.(item, work.indexOf(item))}
        </li>
      ))}
    </ol>
  );
}
