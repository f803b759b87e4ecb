import { dailyLogInput, savedSections, savedWorkNotes, shiftDate, type DailyLog, type DailyLogInput, type DailyLogSummary } from '@siteboard/shared';

export type DayState = 'signed' | 'draft' | 'none';

/** The `count` days up to `today`, newest first, each with the state of its log (none: nobody opened it). */
export function recentDays(today: string, count: number, logs: readonly DailyLogSummary[]): { date: string; state: DayState }[] {
  const byDate = new Map(logs.map((log) => [log.date, log.status]));
  return Array.from({ length: count }, (_, index) => {
    const date = shiftDate(today, -index);
    return { date, state: byDate.get(date) ?? 'none' };
  });
}

/** What the log's form holds: the sections as they are typed, the weather always there (blank: not recorded). */
export interface LogFormValues {
  weather: { conditions: string; temperature: number | null; wind: string; precipitation: string; work_stopped: boolean };
  crew: { trade: string; company: string; headcount: number | null; hours: number | null }[];
  equipment: { name: string; hours: number | null }[];
  deliveries: { what: string; from: string }[];
  delays: { cause: string; hours_lost: number | null }[];
  incidents: { kind: 'incident' | 'observation'; description: string }[];
  visitors: { name: string; company: string; purpose: string }[];
  notes: string;
  work: { activity_id: number; excluded: boolean; comment: string }[];
}

export const BLANK_ROWS = {
  crew: { trade: '', company: '', headcount: null, hours: null },
  equipment: { name: '', hours: null },
  deliveries: { what: '', from: '' },
  delays: { cause: '', hours_lost: null },
  incidents: { kind: 'incident', description: '' },
  visitors: { name: '', company: '', purpose: '' },
} as const satisfies { [Section in keyof LogFormValues]?: LogFormValues[Section] extends (infer Row)[] ? Row : never };

/** The form's values of a stored log. */
export function formValuesOf(log: DailyLog): LogFormValues {
  const weather = log.weather;
  return {
    weather: weather
      ? { conditions: weather.conditions, temperature: weather.temperature, wind: weather.wind ?? '', precipitation: weather.precipitation ?? '', work_stopped: weather.work_stopped }
      : { conditions: '', temperature: null, wind: '', precipitation: '', work_stopped: false },
    crew: log.crew,
    equipment: log.equipment,
    deliveries: log.deliveries.map((row) => ({ what: row.what, from: row.from ?? '' })),
    delays: log.delays,
    incidents: log.incidents,
    visitors: log.visitors.map((row) => ({ name: row.name, company: row.company ?? '', purpose: row.purpose ?? '' })),
    notes: log.notes,
    work: log.work.map((item) => ({ activity_id: item.activity_id, excluded: item.excluded, comment: item.manager_comment ?? '' })),
  };
}

/**
 * The log as it will be once the saves that wait on this device have gone, oldest first, each read
 * as the server reads it (`dailyLogInput`) and applied by the server's rule (savedSections,
 * savedWorkNotes). The form shows it, so a log saved without a signal and opened again (a reload,
 * the next morning) still holds what was typed. A save the server would refuse changes nothing.
 */
export function withWaitingSaves(log: DailyLog, saves: readonly unknown[]): DailyLog {
  return saves.reduce<DailyLog>((current, save) => {
    const read = dailyLogInput.safeParse(save);
    if (!read.success) return current;
    const { work, ...sections } = read.data;
    const next: DailyLog = { ...current, ...(savedSections(sections) as Partial<DailyLog>) };
    if (work) {
      const notes = new Map(savedWorkNotes(work).map((note) => [note.activity_id, note]));
      next.work = current.work.map((item) => ({ ...item, excluded: notes.get(item.activity_id)?.excluded ?? false, manager_comment: notes.get(item.activity_id)?.comment ?? null }));
    }
    return next;
  }, log);
}

/** The form's values with each number field (a head count, hours, hours lost, the temperature) mapped. */
function mapNumbers(values: LogFormValues, map: (value: unknown) => unknown): LogFormValues {
  return {
    ...values,
    weather: { ...values.weather, temperature: map(values.weather.temperature) },
    crew: values.crew.map((row) => ({ ...row, headcount: map(row.headcount), hours: map(row.hours) })),
    equipment: values.equipment.map((row) => ({ ...row, hours: map(row.hours) })),
    delays: values.delays.map((row) => ({ ...row, hours_lost: map(row.hours_lost) })),
  } as LogFormValues;
}

/**
 * The values as the form shows them: a stored number in the reader's way (`show`: "7,5" in German,
 * never grouped), not JavaScript's "7.5" in a German form. What the form sends reads either mark.
 */
export const shownFormValues = (values: LogFormValues, show: (value: number) => string): LogFormValues => mapNumbers(values, (value) => (typeof value === 'number' ? show(value) : value));

/** What the form sends: the numbers as typed or shown, read (numberOrNull); a weather left entirely blank is no weather. */
export function inputOf(values: LogFormValues): DailyLogInput {
  const read = mapNumbers(values, numberOrNull);
  const { weather } = read;
  const blank = !weather.conditions.trim() && weather.temperature === null && !weather.wind.trim() && !weather.precipitation.trim() && !weather.work_stopped;
  return { ...read, weather: blank ? null : weather } as DailyLogInput;
}

/** A decimal as people type it: a point or a comma before the decimals ("7.5", "7,5", "-2,5"), nothing else. */
const DECIMAL = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;
/**
 * "1.000" or "1,000": a thousand where people group digits with that mark, one where they write
 * decimals with it. A head count or hours never need three decimals: such a number is refused
 * (the field's message), never read as the other one.
 */
const GROUPED = /^[+-]?\d{1,3}[.,]\d{3}$/;

/**
 * A number field's value for the form: blank is null (not given), a decimal with a point or a
 * comma its number, anything else (or three decimals, read as grouped digits) NaN, which the
 * schema refuses with the field's message. The
 * fields are text fields: a browser's number field in another language than the person's drops a
 * comma it does not expect, and "7,5" hours became 75 without a word.
 */
export const numberOrNull = (value: unknown) => {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  const typed = String(value).trim();
  if (typed === '') return null;
  return DECIMAL.test(typed) && !GROUPED.test(typed) ? Number(typed.replace(',', '.')) : Number.NaN;
};
