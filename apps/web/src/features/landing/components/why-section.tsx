import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from '../../../components/ui/icons';

const POINTS: { icon: IconName; title: string; body: string }[] = [
  { icon: 'projects', title: 'landing.why.plan.title', body: 'landing.why.plan.body' },
  { icon: 'tasks', title: 'landing.why.assign.title', body: 'landing.why.assign.body' },
  { icon: 'performance', title: 'landing.why.track.title', body: 'landing.why.track.body' },
];

export function WhySection() {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="why-title" className="bg-white py-16 sm:py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="why-title" className="text-3xl font-bold text-ink">
          {t('landing.why.title')}
        </h2>
        <p className="mt-3 max-w-3xl text-lg text-slate-600">{t('landing.why.body')}</p>
        <div className="mt-10 grid gap-6 sm:grid-cols-3">
          {POINTS.map((point) => (
            <div key={point.title} className="rounded-2xl border border-slate-200 p-6">
              <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
                <Icon name={point.icon} className="h-6 w-6" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-ink">{t(point.title)}</h3>
              <p className="mt-2 text-slate-600">{t(point.body)}</p>
            </div>
          ))}
        </div>
      </div>
    </section>
  );
}
