import { zodResolver } from '@hookform/resolvers/zod';
import { dailyLogEntryInput, type DailyLog, type DailyLogEntry, type DailyLogEntryInput } from '@siteboard/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { TextAreaField, TextField } from '../../../components/ui/form-field';
import { applyFieldErrors } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { failureDetail, useFailureMessage } from '../../../lib/failure-message';
import { formatDate, formatDateTime, formatNumber, formatNumberInput } from '../../../lib/format';
import { useWaitingWrites } from '../../../lib/waiting-writes';
import { useAddLogEntry } from '../api/add-log-entry';
import { useChangeLogEntry } from '../api/change-log-entry';
import { useDeleteLogEntry } from '../api/delete-log-entry';
import { numberOrNull } from '../daily-logs.rules';
import { LogBlock } from './log-view';
import { contributionOf } from './refused-contributions';

type Output = z.output<typeof dailyLogEntryInput>;
/** Hours as typed (or as the reader writes the stored ones), read by numberOrNull. */
type EntryValues = { hours: string | number | null; note: string };

/** Hours and a note: a new entry, or one's own entry being changed. */
function EntryForm({ initial, submitLabel, onSubmit, onCancel }: { initial: EntryValues; submitLabel: string; onSubmit: (input: DailyLogEntryInput) => Promise<void>; onCancel?: () => void }) {
  const { t } = useTranslation();
  const failureMessage = useFailureMessage();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<EntryValues, unknown, Output>({ resolver: zodResolver(dailyLogEntryInput) as never, defaultValues: initial });
  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit(values);
      form.reset({ hours: null, note: '' });
    } catch (error) {
      if (!applyFieldErrors<EntryValues>(error, form.setError, ['hours', 'note'])) setFailure(failureMessage(error, { other: 'dailyLog.entries.failed' }));
    }
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-[10rem_minmax(0,1fr)]">
        <TextField label={t('dailyLog.entries.hours')} inputMode="decimal" autoComplete="off" error={form.formState.errors.hours?.message} {...form.register('hours', { setValueAs: numberOrNull })} />
        <TextAreaField label={t('dailyLog.entries.note')} rows={2} error={form.formState.errors.note?.message} {...form.register('note')} />
      </div>
      {failure && <Alert tone="error">{failure}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            {t('dailyLog.cancel')}
          </Button>
        )}
      </div>
    </form>
  );
}

function EntryRow({ entry, log, projectId, mayChange }: { entry: DailyLogEntry; log: DailyLog; projectId: number; mayChange: boolean }) {
  const { t } = useTranslation();
  const change = useChangeLogEntry();
  const remove = useDeleteLogEntry();
  const [editing, setEditing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const confirm = useConfirm({ title: t('dailyLog.entries.removeTitle'), confirmLabel: t('dailyLog.remove'), cancelLabel: t('dailyLog.cancel') });
  // Hours gone with one tap were gone for good: asked first, and a removal that fails says why.
  const onRemove = async () => {
    setFailure(null);
    if (!(await confirm.ask(t('dailyLog.entries.removeDescription')))) return;
    remove.mutate({ projectId, date: log.date, entryId: entry.id }, { onError: (error) => setFailure(t('dailyLog.entries.removeFailed', { detail: failureDetail(error) })) });
  };
  const who = entry.author.full_name ?? entry.author.email;
  if (editing) {
    return (
      <li className="rounded-xl bg-brand-50 p-3 ring-1 ring-brand-200">
        <EntryForm
          initial={{ hours: entry.hours === null ? null : formatNumberInput(entry.hours), note: entry.note ?? '' }}
          submitLabel={t('dailyLog.entries.saveChange')}
          onCancel={() => setEditing(false)}
          onSubmit={async (input) => {
            await change.mutateAsync({ projectId, date: log.date, entryId: entry.id, input });
            setEditing(false);
          }}
        />
      </li>
    );
  }
  return (
    <li className="flex flex-wrap items-start justify-between gap-2 rounded-xl bg-white p-3 ring-1 ring-slate-200">
      <div className="min-w-0 text-sm">
        <EntryLines who={who} hours={entry.hours} note={entry.note} forDate={entry.for_date} />
        <p className="mt-1 text-xs text-slate-500">{formatDateTime(entry.updated_at)}</p>
      </div>
      {confirm.dialog}
      {mayChange && (
        <div className="flex gap-1.5">
          <Button variant="secondary" size="sm" onClick={() => setEditing(true)} aria-label={t('dailyLog.entries.editSubject', { time: formatDateTime(entry.created_at) })}>
            {t('dailyLog.edit')}
          </Button>
          <Button variant="danger" size="sm" disabled={remove.isPending} onClick={() => void onRemove()} aria-label={t('dailyLog.entries.removeSubject', { time: formatDateTime(entry.created_at) })}>
            {t('dailyLog.remove')}
          </Button>
        </div>
      )}
      {failure && (
        <div className="basis-full">
          <Alert tone="error">{failure}</Alert>
        </div>
      )}
    </li>
  );
}

/**
 * Who logged an entry, its hours, the day it was for when it was moved here from that day's signed
 * log (record 129), and its note: as stored, or as it waits on this device.
 */
function EntryLines({ who, hours, note, forDate }: { who: string | undefined; hours: number | null; note: string | null | undefined; forDate: string | null }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="font-medium text-slate-900">
        {who}
        {hours !== null && <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700">{t('dailyLog.entries.hoursValue', { hours: formatNumber(hours) })}</span>}
      </p>
      {forDate && <p className="mt-1 font-medium text-amber-800">{t('dailyLog.moved.for', { date: formatDate(forDate) })}</p>}
      {note && <p className="mt-1 whitespace-pre-wrap break-words text-slate-700">{note}</p>}
    </>
  );
}

/**
 * The crew's own hours and notes of the day: everyone's, one's own changeable until the log is
 * signed; `mayAdd` shows the form to add one (without a signal it waits on the device).
 */
export function LogEntries({ log, projectId, projectName, mayAdd, mayChangeOwn }: { log: DailyLog; projectId: number; projectName: string; mayAdd: boolean; mayChangeOwn: boolean }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const add = useAddLogEntry();
  const [added, setAdded] = useState(false);
  // One's own entries made without a signal (or moved here), from the device's queue: in sight until the server has them.
  const waiting = useWaitingWrites().flatMap((write) => {
    const contribution = write.status === 'waiting' && write.method === 'POST' ? contributionOf(write.path) : undefined;
    return contribution?.projectId === projectId && contribution.logDate === log.date && contribution.part === 'entries' ? [{ write, forDate: contribution.forDate === log.date ? null : contribution.forDate }] : [];
  });
  return (
    <LogBlock title={t('dailyLog.section.entries')}>
      {log.entries.length === 0 && waiting.length === 0 ? (
        <p className="text-sm text-slate-500">{t('dailyLog.entries.none')}</p>
      ) : (
        <ul className="space-y-2" aria-label={t('dailyLog.section.entries')}>
          {log.entries.map((entry) => (
            <EntryRow key={entry.id} entry={entry} log={log} projectId={projectId} mayChange={mayChangeOwn && entry.author.id === user?.id} />
          ))}
          {waiting.map(({ write, forDate }) => {
            const input = write.json as { hours?: number | null; note?: string | null };
            return (
              <li key={write.id} className="rounded-xl border border-dashed border-slate-300 bg-white p-3 text-sm">
                <EntryLines who={user?.full_name ?? user?.email} hours={typeof input.hours === 'number' ? input.hours : null} note={input.note} forDate={forDate} />
                <p className="mt-1 text-xs font-medium text-amber-700">{t('offline.status.waiting')}</p>
              </li>
            );
          })}
        </ul>
      )}
      {mayAdd && log.status === 'draft' && (
        <div className="space-y-2 border-t border-slate-200 pt-3">
          <h3 className="text-sm font-semibold text-slate-800">{t('dailyLog.entries.addTitle')}</h3>
          {added && <Alert tone="success">{t('dailyLog.entries.added')}</Alert>}
          <EntryForm
            initial={{ hours: null, note: '' }}
            submitLabel={t('dailyLog.entries.add')}
            onSubmit={async (input) => {
              setAdded(false);
              const entry = await add.mutateAsync({ projectId, date: log.date, input, subject: projectName });
              // Queued without a signal (undefined): the page says it waits on the device.
              setAdded(entry !== undefined);
            }}
          />
        </div>
      )}
    </LogBlock>
  );
}
