import { useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { appraisalQuery, AppraisalQuery, Role } from '@siteboard/shared';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { DateField } from '../../../components/ui/form-field';
import { FileButton } from '../../../components/ui/download-list-buttons';
import { SearchSelect } from '../../../components/ui/search-select';
import { useFailureMessage, useQueryFailure } from '../../../lib/failure-message';
import type { ListSearch } from '../../../lib/lists';
import { useAppraisalReport } from '../api/get-appraisal-report';
import { useDownloadAppraisalFile } from '../api/download-appraisal-file';
import { useGenerateAppraisalPdf } from '../api/generate-appraisal-pdf';
import { AppraisalChart, ApprovalFigures, EfficiencyBar } from './appraisal-chart';

type FormInput = z.input<typeof appraisalQuery>;

// The form draws at once; its check (zod and the report's schema) loads when the form is first
// pointed at or focused, or at the first submit: the dashboard's first load carries no zod (decision record 095).
const loadResolver = () => import('./appraisal-resolver');
const resolver: Resolver<FormInput, unknown, AppraisalQuery> = async (...args) => (await loadResolver()).appraisalResolver(...args);

export interface AppraisalPerson {
  id: number;
  email: string;
  full_name?: string | null;
  code: string;
  role: Role;
}

/**
 * The admin's appraisal of one manager or team member over an optional range of due dates: the
 * four bars and the efficiency score on screen, or the same report as a PDF download, or its
 * subtasks as a CSV download.
 */
export function AdminAppraisalReport({ findPeople }: { findPeople: ListSearch<AppraisalPerson> }) {
  const { t } = useTranslation();
  const failureMessage = useFailureMessage();
  const [query, setQuery] = useState<AppraisalQuery | null>(null);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const report = useAppraisalReport(query);
  const reportFailure = useQueryFailure(report.error, { other: 'admin.appraisal.fetchFailed' });
  const pdf = useGenerateAppraisalPdf();
  const csv = useDownloadAppraisalFile('csv');
  const xlsx = useDownloadAppraisalFile('xlsx');
  const form = useForm<FormInput, unknown, AppraisalQuery>({
    resolver,
    defaultValues: { user_id: '', start_date: '', end_date: '' },
  });
  const { errors } = form.formState;

  // A choice the form refuses takes the previous report off the screen: its numbers no longer answer what the form shows.
  const dropReport = () => {
    setOutcome(null);
    setQuery(null);
  };
  const generate = form.handleSubmit((values) => {
    setOutcome(null);
    // The same choice again asks the server again: the person's tasks may have moved since.
    if (query && JSON.stringify(query) === JSON.stringify(values)) void report.refetch();
    else setQuery(values);
  }, dropReport);
  const download = form.handleSubmit((values) => {
    setOutcome(null);
    pdf.mutate(values, {
      onSuccess: () => setOutcome({ tone: 'success', text: t('admin.appraisal.pdfDone') }),
      onError: (error) => setOutcome({ tone: 'error', text: failureMessage(error, { other: 'admin.appraisal.pdfFailed' }) }),
    });
  }, dropReport);
  const downloadFile = (format: 'csv' | 'xlsx') =>
    form.handleSubmit((values) => {
      setOutcome(null);
      (format === 'csv' ? csv : xlsx).mutate(values, { onError: (error) => setOutcome({ tone: 'error', text: failureMessage(error, { other: `${format}.failed` }) }) });
    }, dropReport);

  // A failed new answer never leaves the previous one's numbers under its error.
  const item = report.isError ? undefined : report.data;
  return (
    <div className="space-y-4">
      <form onSubmit={generate} onPointerEnter={() => void loadResolver()} onFocus={() => void loadResolver()} noValidate className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.25fr)_minmax(0,1.25fr)_minmax(9rem,1fr)_minmax(9rem,1fr)]">
        <SearchSelect
          className="contents"
          find={findPeople}
          toOption={(person) => ({
            value: person.id,
            // Named where the person has a name: two people's e-mails can look alike.
            label: person.full_name
              ? t('admin.appraisal.namedPersonOption', { name: person.full_name, email: person.email, code: person.code })
              : t('admin.appraisal.personOption', { email: person.email, code: person.code }),
          })}
          searchLabel={t('admin.appraisal.search')}
          searchPlaceholder={t('admin.appraisal.searchPlaceholder')}
          onSearch={() => form.setValue('user_id', '')}
          label={t('admin.appraisal.person')}
          placeholder={t('admin.appraisal.selectPerson')}
          empty={t('admin.users.empty')}
          error={errors.user_id?.message}
          {...form.register('user_id')}
        />
        <Controller control={form.control} name="start_date" render={({ field: date }) => <DateField label={t('admin.appraisal.startDate')} hint={t('admin.optional')} error={errors.start_date?.message} {...date} />} />
        <Controller control={form.control} name="end_date" render={({ field: date }) => <DateField label={t('admin.appraisal.endDate')} hint={t('admin.optional')} error={errors.end_date?.message} {...date} />} />
        <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-4">
          <Button type="submit" disabled={report.isFetching}>
            {t('admin.appraisal.generate')}
          </Button>
          <Button variant="secondary" onClick={download} disabled={pdf.isPending}>
            {t('admin.appraisal.downloadPdf')}
          </Button>
          <FileButton format="csv" subject={t('admin.appraisalReport')} pending={csv.isPending} onClick={downloadFile('csv')} />
          <FileButton format="xlsx" subject={t('admin.appraisalReport')} pending={xlsx.isPending} onClick={downloadFile('xlsx')} />
        </div>
      </form>
      {outcome && <Alert tone={outcome.tone}>{outcome.text}</Alert>}
      {reportFailure && <Alert tone="error">{reportFailure}</Alert>}
      {report.isFetching && !item && <p className="text-sm text-slate-600" role="status">{t('app.loading')}</p>}
      {item && (
        <div className="space-y-4 rounded-xl p-4 ring-1 ring-slate-200" aria-live="polite">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="break-words font-semibold text-ink">{t('admin.appraisal.personOption', { email: item.full_name ?? item.name, code: item.code })}</h3>
            <span className="text-sm text-slate-600">
              {t(`role.${item.role}`)} · {t('admin.appraisal.totalTasks', { count: item.total_tasks })}
            </span>
          </div>
          <AppraisalChart item={item} />
          <EfficiencyBar score={item.efficiency_score} />
          <ApprovalFigures item={item} />
        </div>
      )}
    </div>
  );
}
