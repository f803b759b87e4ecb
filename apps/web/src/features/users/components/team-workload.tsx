import { useTranslation } from 'react-i18next';
import { RetryAlert } from '../../../components/ui/alert';
import { useTeamWorkload } from '../api/get-team-workload';
import { PersonText } from '../../../components/ui/person-text';

/** The manager's team, least loaded first, each with the names of their ongoing subtasks. */
export function TeamWorkload() {
  const { t } = useTranslation();
  const workload = useTeamWorkload();

  if (workload.isError) {
    return (
      <RetryAlert onRetry={() => void workload.refetch()} retryLabel={t('common.retry')}>
        {t('team.loadFailed')}
      </RetryAlert>
    );
  }
  if (!workload.data) return <p className="text-sm text-slate-500">{t('app.loading')}</p>;
  if (workload.data.length === 0) return <p className="rounded-2xl bg-white p-6 text-center text-sm text-slate-500 ring-1 ring-slate-200">{t('team.noMembers')}</p>;

  return (
    <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {workload.data.map((item) => (
        <li key={item.user_id} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <p className="min-w-0 break-words font-semibold text-ink">
              <PersonText person={item} />
            </p>
            <span className="shrink-0 rounded-full bg-orange-100 px-2.5 py-0.5 text-xs font-semibold text-orange-800">{t('team.ongoingCount', { count: item.task_count })}</span>
          </div>
          {item.tasks.length === 0 ? (
            <p className="mt-3 text-sm text-green-800">{t('team.noOngoing')}</p>
          ) : (
            <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700">
              {item.tasks.map((task, index) => (
                <li key={index}>{task}</li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
