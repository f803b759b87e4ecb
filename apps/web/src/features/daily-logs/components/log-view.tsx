import type { DailyLogContent, DailyLogSection } from '@siteboard/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';

/** A section's rows as a small table (a card per row on a phone), or a line saying nothing was recorded. */
function Rows({ label, headers, rows }: { label: string; headers: string[]; rows: ReactNode[][] }) {
  const { t } = useTranslation();
  if (rows.length === 0) return <p className="text-sm text-slate-500">{t('dailyLog.nothingRecorded')}</p>;
  return (
    <div className="overflow-x-auto rounded-lg ring-1 ring-slate-200">
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm" aria-label={label}>
        <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {headers.map((header) => (
              <th key={header} scope="col" className="px-3 py-2">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row, index) => (
            <tr key={index}>
              {row.map((cell, column) => (
                <td key={column} className="break-words px-3 py-2 align-top text-slate-700">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const hours = (value: number | null) => (value === null ? '' : formatNumber(value));

/** One section of a log as it reads, signed or amended. */
export function SectionView({ section, content }: { section: DailyLogSection; content: Partial<DailyLogContent> }) {
  const { t } = useTranslation();
  const title = t(`dailyLog.section.${section}`);
  switch (section) {
    case 'weather': {
      const weather = content.weather;
      if (!weather) return <p className="text-sm text-slate-500">{t('dailyLog.nothingRecorded')}</p>;
      const facts: [string, string][] = [
        [t('dailyLog.weather.conditions'), weather.conditions],
        [t('dailyLog.weather.temperature'), weather.temperature === null ? '—' : t('dailyLog.weather.degrees', { value: formatNumber(weather.temperature) })],
        [t('dailyLog.weather.wind'), weather.wind ?? '—'],
        [t('dailyLog.weather.precipitation'), weather.precipitation ?? '—'],
        [t('dailyLog.weather.workStopped'), weather.work_stopped ? t('dailyLog.yes') : t('dailyLog.no')],
      ];
      return (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 2xl:grid-cols-5">
          {facts.map(([label, value]) => (
            <div key={label} className="min-w-0">
              <dt className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label}</dt>
              <dd className="break-words text-sm text-slate-800">{value}</dd>
            </div>
          ))}
        </dl>
      );
    }
    case 'crew':
      return (
        <Rows
          label={title}
          headers={[t('dailyLog.crew.trade'), t('dailyLog.crew.company'), t('dailyLog.crew.headcount'), t('dailyLog.crew.hours')]}
          rows={(content.crew ?? []).map((row) => [row.trade, row.company, formatNumber(row.headcount), hours(row.hours)])}
        />
      );
    case 'equipment':
      return <Rows label={title} headers={[t('dailyLog.equipment.name'), t('dailyLog.equipment.hours')]} rows={(content.equipment ?? []).map((row) => [row.name, hours(row.hours)])} />;
    case 'deliveries':
      return <Rows label={title} headers={[t('dailyLog.deliveries.what'), t('dailyLog.deliveries.from')]} rows={(content.deliveries ?? []).map((row) => [row.what, row.from ?? ''])} />;
    case 'delays':
      return <Rows label={title} headers={[t('dailyLog.delays.cause'), t('dailyLog.delays.hoursLost')]} rows={(content.delays ?? []).map((row) => [row.cause, hours(row.hours_lost)])} />;
    case 'incidents':
      return (
        <Rows
          label={title}
          headers={[t('dailyLog.incidents.kind'), t('dailyLog.incidents.description')]}
          rows={(content.incidents ?? []).map((row) => [t(`dailyLog.incidents.${row.kind}`), row.description])}
        />
      );
    case 'visitors':
      return (
        <Rows
          label={title}
          headers={[t('dailyLog.visitors.name'), t('dailyLog.visitors.company'), t('dailyLog.visitors.purpose')]}
          rows={(content.visitors ?? []).map((row) => [row.name, row.company ?? '', row.purpose ?? ''])}
        />
      );
    case 'notes':
      return content.notes ? <p className="whitespace-pre-wrap break-words text-sm text-slate-800">{content.notes}</p> : <p className="text-sm text-slate-500">{t('dailyLog.nothingRecorded')}</p>;
  }
}

/** A titled block of the log's page. */
export function LogBlock({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <section className="space-y-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-ink">{title}</h2>
        {action}
      </div>
      {children}
    </section>
  );
}
