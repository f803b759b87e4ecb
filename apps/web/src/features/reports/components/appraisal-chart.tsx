import { shownDecisionHours, type AppraisalItem } from '@siteboard/shared';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber, formatPercent } from '../../../lib/format';

// recharts is about 100 KB gzipped: it loads with the first chart, not with the area.
const AppraisalBarChart = lazy(() => import('./appraisal-bar-chart'));

export function AppraisalChart({ item, height = 220 }: { item: AppraisalItem; height?: number }) {
  return (
    <Suspense fallback={<div style={{ height }} className="animate-pulse rounded bg-slate-100" />}>
      <AppraisalBarChart item={item} height={height} />
    </Suspense>
  );
}

/** The efficiency score as a percentage bar. */
export function EfficiencyBar({ score }: { score: number }) {
  const { t } = useTranslation();
  return (
    <div>
      <div className="mb-1 flex justify-between text-sm font-medium text-slate-700">
        <span>{t('appraisal.efficiency')}</span>
        <span>{formatPercent(score)}</span>
      </div>
      <div className="h-3 rounded-full bg-slate-200" role="progressbar" aria-valuenow={score} aria-valuemin={0} aria-valuemax={100} aria-label={t('appraisal.efficiency')}>
        <div className="h-3 rounded-full bg-sky-600" style={{ width: `${Math.min(100, Math.max(0, score))}%` }} />
      </div>
    </div>
  );
}

/** What the approvers decided on the person's work: on-time rate, how much was approved the first time, declines, the median wait for a decision. */
export function ApprovalFigures({ item }: { item: AppraisalItem }) {
  const { t } = useTranslation();
  const na = t('common.notAvailable');
  const percent = (value: number | null) => (value === null ? na : formatPercent(value));
  const decisionHours = (hours: number) => {
    const shown = shownDecisionHours(hours);
    const text = t('appraisal.hours', { value: formatNumber(shown.value, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
    return shown.under ? t('appraisal.under', { value: text }) : text;
  };
  const figures: [string, string][] = [
    [t('appraisal.onTime'), percent(item.on_time_completion_rate)],
    [t('appraisal.firstPass'), percent(item.first_pass_approval_rate)],
    [t('appraisal.declines'), formatNumber(item.declines_received)],
    // Left unfinished when its project was completed: apart from the bars, never overdue (decision record 061).
    [t('appraisal.closedUnfinished'), formatNumber(item.closed_unfinished_tasks)],
    [t('appraisal.medianDecision'), item.median_decision_hours === null ? na : decisionHours(item.median_decision_hours)],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
      {figures.map(([label, value]) => (
        <div key={label} className="min-w-0 rounded-lg bg-slate-50 px-3 py-2">
          <dt className="break-words text-xs font-medium text-slate-500">{label}</dt>
          <dd className="text-lg font-semibold text-ink">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
