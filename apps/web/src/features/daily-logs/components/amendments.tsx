import { zodResolver } from '@hookform/resolvers/zod';
import { amendmentInput, DAILY_LOG_SECTIONS, type Amendment, type AmendmentInput, type DailyLog } from '@siteboard/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { TextAreaField } from '../../../components/ui/form-field';
import { applyFieldErrors } from '../../../lib/api-client';
import { useFailureMessage } from '../../../lib/failure-message';
import { formatDateTime } from '../../../lib/format';
import { useAddAmendment } from '../api/add-amendment';
import { LogBlock, SectionView } from './log-view';

function AmendmentItem({ amendment, number }: { amendment: Amendment; number: number }) {
  const { t } = useTranslation();
  const { changes } = amendment;
  return (
    <li className="space-y-2 rounded-xl bg-purple-50 p-3 ring-1 ring-purple-200">
      <p className="text-sm font-semibold text-purple-900">{t('dailyLog.amendments.heading', { number })}</p>
      <p className="text-xs text-purple-900">
        {amendment.author ? (amendment.author.full_name ?? amendment.author.email) : t('dailyLog.work.system')} · {formatDateTime(amendment.created_at)}
      </p>
      <p className="break-words text-sm text-slate-800">
        <span className="font-medium">{t('common.labelled', { label: t('dailyLog.amendments.reason') })} </span>
        {amendment.reason}
      </p>
      {typeof changes === 'string' ? (
        <p className="whitespace-pre-wrap break-words text-sm text-slate-800">
          <span className="font-medium">{t('common.labelled', { label: t('dailyLog.amendments.changes') })} </span>
          {changes}
        </p>
      ) : (
        DAILY_LOG_SECTIONS.filter((section) => changes[section] !== undefined).map((section) => (
          <div key={section} className="space-y-1">
            <p className="text-sm font-medium text-slate-800">{t('dailyLog.amendments.corrected', { section: t(`dailyLog.section.${section}`) })}</p>
            <SectionView section={section} content={changes} />
          </div>
        ))
      )}
    </li>
  );
}

type Output = z.output<typeof amendmentInput>;
type AmendmentValues = { reason: string; changes: string };

/**
 * The corrections of a signed log, beside it: each with why, what changed, who and when; the
 * log's keepers add one (the log itself is never changed).
 */
export function Amendments({ log, projectId, mayAmend }: { log: DailyLog; projectId: number; mayAmend: boolean }) {
  const { t } = useTranslation();
  const failureMessage = useFailureMessage();
  const add = useAddAmendment();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<AmendmentValues, unknown, Output>({ resolver: zodResolver(amendmentInput) as never, defaultValues: { reason: '', changes: '' } });
  const submit = form.handleSubmit(async (input) => {
    setFailure(null);
    try {
      await add.mutateAsync({ projectId, date: log.date, input: input as AmendmentInput });
      form.reset();
    } catch (error) {
      if (!applyFieldErrors<AmendmentValues>(error, form.setError, ['reason', 'changes'])) setFailure(failureMessage(error, { other: 'dailyLog.amendments.failed' }));
    }
  });
  return (
    <LogBlock title={t('dailyLog.amendments.title')}>
      {log.amendments.length === 0 ? (
        <p className="text-sm text-slate-500">{t('dailyLog.amendments.none')}</p>
      ) : (
        <ol className="space-y-3" aria-label={t('dailyLog.amendments.title')}>
          {log.amendments.map((amendment, index) => (
            <AmendmentItem key={amendment.id} amendment={amendment} number={index + 1} />
          ))}
        </ol>
      )}
      {mayAmend && (
        <form onSubmit={(event) => void submit(event)} noValidate className="space-y-3 border-t border-slate-200 pt-3">
          <h3 className="text-sm font-semibold text-slate-800">{t('dailyLog.amendments.addTitle')}</h3>
          <TextAreaField label={t('dailyLog.amendments.reason')} rows={2} error={form.formState.errors.reason?.message} {...form.register('reason')} />
          <TextAreaField label={t('dailyLog.amendments.changes')} hint={t('dailyLog.amendments.changesHint')} rows={3} error={form.formState.errors.changes?.message} {...form.register('changes')} />
          {failure && <Alert tone="error">{failure}</Alert>}
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {t('dailyLog.amendments.add')}
          </Button>
        </form>
      )}
    </LogBlock>
  );
}
