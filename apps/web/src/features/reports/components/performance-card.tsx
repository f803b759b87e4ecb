import type { AppraisalItem } from '@siteboard/shared';
import { useTranslation } from 'react-i18next';
import { AppraisalChart, ApprovalFigures, EfficiencyBar } from './appraisal-chart';

/** One person's appraisal on the team performance screen: the four bars and the efficiency score. */
export function PerformanceCard({ item }: { item: AppraisalItem }) {
  const { t } = useTranslation();
  return (
    <article className="h-full space-y-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200" aria-label={item.full_name ?? item.name}>
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="break-words font-semibold text-ink">{item.full_name ?? item.name}</h3>
          <p className="text-sm text-slate-600">
            {item.code} · {t(`role.${item.role}`)}
          </p>
        </div>
        <span className="shrink-0 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-semibold text-slate-700">{t('performance.totalTasks', { count: item.total_tasks })}</span>
      </header>
      <AppraisalChart item={item} />
      <EfficiencyBar score={item.efficiency_score} />
      <ApprovalFigures item={item} />
    </article>
  );
}
