import { zodResolver } from '@hookform/resolvers/zod';
import { dailyLogInput, type DailyLog, type DailyLogInput } from '@siteboard/shared';
import { useEffect, useState } from 'react';
import { useFieldArray, useForm, type Path, type Resolver, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useConfirm } from '../../../components/ui/confirm-dialog';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/form-field';
import { applyFieldErrors, sendWaitingWrites } from '../../../lib/api-client';
import { useFailureMessage } from '../../../lib/failure-message';
import { formatDate, formatNumberInput } from '../../../lib/format';
import { heldBehindRefusal, useWaitingWrites, waitingWritesNow } from '../../../lib/waiting-writes';
import { dailyLogPath } from '../api/get-daily-log';
import { useSaveDailyLog } from '../api/save-daily-log';
import { useSignDailyLog } from '../api/sign-daily-log';
import { BLANK_ROWS, formValuesOf, inputOf, numberOrNull, shownFormValues, withWaitingSaves, type LogFormValues } from '../daily-logs.rules';
import { DayWork } from './day-work';
import { LogBlock } from './log-view';

type Form = UseFormReturn<LogFormValues, unknown, DailyLogInput>;
type RowSection = keyof typeof BLANK_ROWS;

interface Column {
  field: string;
  label: string;
  /** `count`: a whole number (a phone shows digits only); `number`: hours, which take a decimal. */
  kind?: 'number' | 'count' | 'kind';
}

/** The keypad a phone shows: digits only for a count, with a decimal separator for hours. */
const INPUT_MODES = { count: 'numeric', number: 'decimal' } as const;

/** The schema checks what the form would send: a blank weather is none. */
const resolver: Resolver<LogFormValues, unknown, DailyLogInput> = (values, context, options) =>
  (zodResolver(dailyLogInput) as unknown as Resolver<LogFormValues, unknown, DailyLogInput>)(inputOf(values) as unknown as LogFormValues, context, options);

/** A section of rows (crew, equipment…): each row's fields in a line on a wide screen, stacked on a phone; rows are added and removed. */
function RowsEditor({ form, section, columns, addLabel }: { form: Form; section: RowSection; columns: Column[]; addLabel: string }) {
  const { t } = useTranslation();
  const rows = useFieldArray({ control: form.control, name: section as 'crew' });
  const errors = form.formState.errors[section] as unknown as Record<string, { message?: string }>[] | undefined;
  const title = t(`dailyLog.section.${section}`);
  return (
    <LogBlock title={title}>
      {rows.fields.length === 0 && <p className="text-sm text-slate-500">{t('dailyLog.nothingRecorded')}</p>}
      <ul className="space-y-3">
        {rows.fields.map((row, index) => (
          <li key={row.id} className={`grid gap-2 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 sm:items-end ${GRID[section]}`}>
              {columns.map((column) => {
                const name = `${section}.${index}.${column.field}` as Path<LogFormValues>;
                const error = errors?.[index]?.[column.field]?.message;
                const label = t(column.label);
                if (column.kind === 'kind') {
                  return (
                    <SelectField key={column.field} label={label} error={error} {...form.register(name)}>
                      <option value="incident">{t('dailyLog.incidents.incident')}</option>
                      <option value="observation">{t('dailyLog.incidents.observation')}</option>
                    </SelectField>
                  );
                }
                if (column.kind === 'number' || column.kind === 'count') {
                  return <TextField key={column.field} label={label} error={error} inputMode={INPUT_MODES[column.kind]} autoComplete="off" {...form.register(name, { setValueAs: numberOrNull })} />;
                }
                return <TextField key={column.field} label={label} error={error} {...form.register(name)} />;
              })}
              <Button variant="ghost" className="justify-self-start text-red-700 hover:bg-red-50" onClick={() => rows.remove(index)} aria-label={t('dailyLog.removeRow', { section: title, number: index + 1 })}>
                {t('dailyLog.remove')}
              </Button>
          </li>
        ))}
      </ul>
      <Button variant="secondary" onClick={() => rows.append({ ...BLANK_ROWS[section] } as never)}>
        {addLabel}
      </Button>
    </LogBlock>
  );
}

/** Each section's grid on a wide screen: its columns and the remove button. */
const GRID: Record<RowSection, string> = {
  crew: 'sm:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto]',
  equipment: 'sm:grid-cols-[minmax(0,3fr)_minmax(0,1fr)_auto]',
  deliveries: 'sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)_auto]',
  delays: 'sm:grid-cols-[minmax(0,3fr)_minmax(0,1fr)_auto]',
  incidents: 'sm:grid-cols-[minmax(12rem,1fr)_minmax(0,3fr)_auto]',
  visitors: 'sm:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,2fr)_auto]',
};

const ROW_COLUMNS: Record<RowSection, Column[]> = {
  crew: [
    { field: 'trade', label: 'dailyLog.crew.trade' },
    { field: 'company', label: 'dailyLog.crew.company' },
    { field: 'headcount', label: 'dailyLog.crew.headcount', kind: 'count' },
    { field: 'hours', label: 'dailyLog.crew.hours', kind: 'number' },
  ],
  equipment: [
    { field: 'name', label: 'dailyLog.equipment.name' },
    { field: 'hours', label: 'dailyLog.equipment.hours', kind: 'number' },
  ],
  deliveries: [
    { field: 'what', label: 'dailyLog.deliveries.what' },
    { field: 'from', label: 'dailyLog.deliveries.from' },
  ],
  delays: [
    { field: 'cause', label: 'dailyLog.delays.cause' },
    { field: 'hours_lost', label: 'dailyLog.delays.hoursLost', kind: 'number' },
  ],
  incidents: [
    { field: 'kind', label: 'dailyLog.incidents.kind', kind: 'kind' },
    { field: 'description', label: 'dailyLog.incidents.description' },
  ],
  visitors: [
    { field: 'name', label: 'dailyLog.visitors.name' },
    { field: 'company', label: 'dailyLog.visitors.company' },
    { field: 'purpose', label: 'dailyLog.visitors.purpose' },
  ],
};

/** Every field of the form a server error may name, to put its message there. */
function fieldsOf(values: LogFormValues): string[] {
  const rowFields = (Object.keys(ROW_COLUMNS) as RowSection[]).flatMap((section) => values[section].flatMap((_, index) => ROW_COLUMNS[section].map((column) => `${section}.${index}.${column.field}`)));
  return ['weather.conditions', 'weather.temperature', 'weather.wind', 'weather.precipitation', 'notes', ...rowFields, ...values.work.map((_, index) => `work.${index}.comment`)];
}

/**
 * The manager's (or an admin's) log of the day while it is a draft: weather, crew, equipment,
 * deliveries, delays, incidents, visitors, notes, and their word on the day's work. Saved as a
 * whole; signing saves first, then signs after a confirmation. `today`: the project's today, where
 * signing before the day is over says what the signed log will miss.
 */
export function LogForm({
  log,
  projectId,
  projectName,
  today,
  onUnsavedChange,
}: {
  log: DailyLog;
  projectId: number;
  projectName: string;
  today: string;
  /** Whether the form holds input not saved (nor waiting on the device): the page asks before it is left. */
  onUnsavedChange?: (unsaved: boolean) => void;
}) {
  const { t } = useTranslation();
  const failureMessage = useFailureMessage();
  const save = useSaveDailyLog();
  const sign = useSignDailyLog();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  // Saves made without a signal wait on the device: the form shows the log as they will make it.
  const path = dailyLogPath(projectId, log.date);
  const waitingSaves = useWaitingWrites().filter((write) => write.status === 'waiting' && write.method === 'PUT' && write.path === path);
  const values = shownFormValues(formValuesOf(withWaitingSaves(log, waitingSaves.map((write) => write.json))), formatNumberInput);
  const form: Form = useForm<LogFormValues, unknown, DailyLogInput>({ resolver, values, resetOptions: { keepDirtyValues: true } });
  const { errors, isDirty } = form.formState;
  useEffect(() => {
    onUnsavedChange?.(isDirty);
    return () => onUnsavedChange?.(false);
  }, [isDirty, onUnsavedChange]);
  const confirm = useConfirm({ title: t('dailyLog.sign.title'), confirmLabel: t('dailyLog.sign.confirm'), cancelLabel: t('dailyLog.cancel') });

  /** Sent (the server has it), queued (it waits on the device for a signal), or failed (the message says why). */
  const store = async (input: DailyLogInput): Promise<'sent' | 'queued' | 'failed'> => {
    try {
      return (await save.mutateAsync({ projectId, date: log.date, input, subject: projectName })) === undefined ? 'queued' : 'sent';
    } catch (error) {
      applyFieldErrors<Record<string, unknown>>(error, (name, fieldError) => form.setError(name as Path<LogFormValues>, fieldError), fieldsOf(form.getValues()));
      setMessage({ tone: 'error', text: failureMessage(error, { other: 'dailyLog.saveFailed' }) });
      return 'failed';
    }
  };

  const onSave = form.handleSubmit(async (input) => {
    setMessage(null);
    const stored = await store(input);
    // Sent or waiting on the device, what was typed is kept: nothing unsaved is left. The form holds
    // the numbers as read (7.5): they are put back as the reader writes them (7,5 in French). Not
    // keeping dirty values (the form's default for a log read again): they are the ones rewritten,
    // the crew's and equipment's hours included.
    if (stored !== 'failed') form.reset(shownFormValues(form.getValues(), formatNumberInput), { keepDirtyValues: false });
    // A save that waits says so from the waiting saves themselves (below): also once the form is opened again.
    if (stored === 'sent') setMessage({ tone: 'success', text: t('dailyLog.saved') });
  });

  const onSign = form.handleSubmit(async (input) => {
    setMessage(null);
    // Signing freezes the day's record of work too: what is sent, approved or photographed later today is not in it.
    const description = t('dailyLog.sign.description', { date: formatDate(log.date) });
    if (!(await confirm.ask(log.date === today ? `${description} ${t('dailyLog.sign.stillToday')}` : description))) return;
    // Nothing changed since a save that waits on the device: it is not queued a second time.
    const stored = waitingSaves.length > 0 && !form.formState.isDirty ? 'queued' : await store(input);
    if (stored === 'failed') return;
    // The signature goes straight to the server, never ahead of the save: queued (no signal, or
    // behind other changes), the save goes first, and the log is signed once the server has it.
    if (stored === 'queued') {
      if (navigator.onLine) await sendWaitingWrites();
      const save = waitingWritesNow().find((write) => write.method === 'PUT' && write.path === path);
      if (save?.status === 'failed') return setMessage({ tone: 'error', text: t('dailyLog.saveFailed', { detail: save.detail }) });
      if (save) {
        const why = !navigator.onLine ? 'dailyLog.sign.needsConnection' : heldBehindRefusal(waitingWritesNow(), save) ? 'offline.changeBehindRefused' : 'offline.changeWaitsForServer';
        return setMessage({ tone: 'error', text: t(why) });
      }
    }
    try {
      await sign.mutateAsync({ projectId, date: log.date });
    } catch (error) {
      setMessage({ tone: 'error', text: failureMessage(error, { other: 'dailyLog.signFailed' }) });
    }
  });

  const busy = save.isPending || sign.isPending;
  const shown = message ?? (waitingSaves.length > 0 ? { tone: 'info' as const, text: t('dailyLog.queued') } : null);
  const weatherError = (field: keyof LogFormValues['weather']) => errors.weather?.[field]?.message;
  return (
    <form onSubmit={(event) => void onSave(event)} noValidate className="space-y-4" aria-label={t('dailyLog.formLabel')}>
      {confirm.dialog}
      <LogBlock title={t('dailyLog.section.weather')}>
        <div className="grid gap-3 sm:grid-cols-2 2xl:grid-cols-4">
          <TextField label={t('dailyLog.weather.conditions')} placeholder={t('dailyLog.weather.conditionsPlaceholder')} error={weatherError('conditions')} {...form.register('weather.conditions')} />
          <TextField label={t('dailyLog.weather.temperatureInput')} autoComplete="off" error={weatherError('temperature')} {...form.register('weather.temperature', { setValueAs: numberOrNull })} />
          <TextField label={t('dailyLog.weather.wind')} error={weatherError('wind')} {...form.register('weather.wind')} />
          <TextField label={t('dailyLog.weather.precipitation')} error={weatherError('precipitation')} {...form.register('weather.precipitation')} />
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-800">
          <input type="checkbox" className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600" {...form.register('weather.work_stopped')} />
          {t('dailyLog.weather.workStoppedInput')}
        </label>
      </LogBlock>
      <RowsEditor form={form} section="crew" columns={ROW_COLUMNS.crew} addLabel={t('dailyLog.crew.add')} />
      <p className="-mt-2 px-1 text-xs text-slate-500">{t('dailyLog.crew.hint')}</p>
      <RowsEditor form={form} section="equipment" columns={ROW_COLUMNS.equipment} addLabel={t('dailyLog.equipment.add')} />
      <RowsEditor form={form} section="deliveries" columns={ROW_COLUMNS.deliveries} addLabel={t('dailyLog.deliveries.add')} />
      <RowsEditor form={form} section="delays" columns={ROW_COLUMNS.delays} addLabel={t('dailyLog.delays.add')} />
      <RowsEditor form={form} section="incidents" columns={ROW_COLUMNS.incidents} addLabel={t('dailyLog.incidents.add')} />
      <RowsEditor form={form} section="visitors" columns={ROW_COLUMNS.visitors} addLabel={t('dailyLog.visitors.add')} />
      <LogBlock title={t('dailyLog.section.notes')}>
        <TextAreaField label={t('dailyLog.section.notes')} hideLabel rows={4} error={errors.notes?.message} {...form.register('notes')} />
      </LogBlock>
      <LogBlock title={t('dailyLog.section.work')}>
        <p className="text-xs text-slate-500">{t('dailyLog.work.hint')}</p>
        <DayWork
          work={log.work}
          logHasPhotos={log.attachments.length > 0}
          controls={(item, index) => (
            <div className="mt-2 grid gap-2 border-t border-slate-200 pt-2 sm:grid-cols-[auto_minmax(0,1fr)] sm:items-end">
              <label className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" className="h-4 w-4 rounded border-slate-300 text-brand-600 focus:ring-brand-600" {...form.register(`work.${index}.excluded`)} />
                {t('dailyLog.work.leaveOut')}
              </label>
              <TextField label={t('dailyLog.work.comment', { subject: item.subtask.name })} error={errors.work?.[index]?.comment?.message} {...form.register(`work.${index}.comment`)} />
            </div>
          )}
        />
      </LogBlock>
      {/* The answer to Save and Sign shows in the bar that stays on screen, beside the buttons: the
          form is thousands of pixels tall on a phone, and a message at its end went unseen. */}
      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap justify-end gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-xl sm:ring-1 sm:ring-slate-200">
        {shown && (
          <div className="basis-full">
            <Alert tone={shown.tone}>{shown.text}</Alert>
          </div>
        )}
        <Button type="submit" variant="secondary" disabled={busy}>
          {t('dailyLog.save')}
        </Button>
        <Button variant="primary" disabled={busy} onClick={() => void onSign()}>
          {t('dailyLog.sign.button')}
        </Button>
      </div>
    </form>
  );
}
