import { zodResolver } from '@hookform/resolvers/zod';
import { managerAppraisalQuery, type AppraisalItem } from '@siteboard/shared';
import { useState, type ReactNode } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DownloadListButtons } from '../../../components/ui/download-list-buttons';
import { DateField } from '../../../components/ui/form-field';
import { ApiError } from '../../../lib/api-client';
import { useTeamAppraisal, type AppraisalRange } from '../api/get-team-appraisal';
import { appraisalFailureKey } from '../reports.rules';

type Input = z.input<typeof managerAppraisalQuery>;
type Output = z.output<typeof managerAppraisalQuery>;

/** The team's appraisal cards over an optional range of due dates; `renderItem` draws one person's card. */
export function TeamPerformance({ renderItem }: { renderItem: (item: AppraisalItem) => ReactNode }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<AppraisalRange>({});
  const report = useTeamAppraisal(range);
  const form = useForm<Input, unknown, Output>({ resolver: zodResolver(managerAppraisalQuery), defaultValues: { start_date: '', end_date: '' } });
  const filtered = Boolean(range.start_date || range.end_date);

  const error = report.error instanceof ApiError ? report.error : null;
  // The server's field errors (a range out of order) sit on the date fields like the form's own.
  const fieldError = (field: 'start_date' | 'end_date') => form.formState.errors[field]?.message ?? error?.errors?.[field]?.[0];

  const onSubmit = form.handleSubmit((values) => {
    const next = { start_date: values.start_date, end_date: values.end_date };
    // Filtering again by the same range asks again, like the first time.
    if (next.start_date === range.start_date && next.end_date === range.end_date) void report.refetch();
    else setRange(next);
  });
  const clear = () => {
    form.reset();
    setRange({});
  };

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="sm:w-48">
          <Controller control={form.control} name="start_date" render={({ field: date }) => <DateField label={t('team.startDate')} error={fieldError('start_date')} {...date} />} />
        </div>
        <div className="sm:w-48">
          <Controller control={form.control} name="end_date" render={({ field: date }) => <DateField label={t('team.endDate')} error={fieldError('end_date')} {...date} />} />
        </div>
        <div className="flex gap-2">
          <Button type="submit">{t('team.filter')}</Button>
          <Button variant="secondary" onClick={clear} disabled={!filtered && !form.formState.isDirty}>
            {t('team.clear')}
          </Button>
        </div>
        {/* Kept together: the two buttons move to a line of their own rather than stack. */}
        <div className="shrink-0 sm:ml-auto">
          {/* The range on screen: the one last filtered by, not what is typed and not yet applied. */}
          <DownloadListButtons path="/projects/api/manager-appraisal-report/" query={range} subject={t('team.performance')} />
        </div>
      </form>
      {report.isError && <Alert tone="error">{t(appraisalFailureKey(error?.status, filtered))}</Alert>}
      {report.isPending ? (
        <p className="text-sm text-slate-500">{t('app.loading')}</p>
      ) : report.data && report.data.length > 0 ? (
        <ul className={`grid gap-4 lg:grid-cols-2 ${report.isPlaceholderData ? 'opacity-60' : ''}`} aria-busy={report.isFetching}>
          {report.data.map((item) => (
            <li key={item.user_id}>{renderItem(item)}</li>
          ))}
        </ul>
      ) : (
        !report.isError && <p className="rounded-2xl bg-white p-6 text-center text-sm text-slate-500 ring-1 ring-slate-200">{t('team.noData')}</p>
      )}
    </div>
  );
}
