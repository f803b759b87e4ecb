import type { AppraisalItem } from '@siteboard/shared';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

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
        <span>{score}%</span>
      </div>
      <div className="h-3 rounded-full bg-slate-200" role="progressbar" aria-valuenow={score} aria-valuemin={0} aria-valuemax={100} aria-label={t('appraisal.efficiency')}>
        <div className="h-3 rounded-full bg-sky-600" style={{ width: `${Math.min(100, Math.max(0, score))}%` }} />
      </div>
    </div>
  );
}
