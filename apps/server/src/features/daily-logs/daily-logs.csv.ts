import { hoursLost } from '@siteboard/shared';
import { fieldColumns, type CsvColumn } from '../../lib/csv';
import type { ExportDays } from './daily-logs.queries';
import { manHoursByTradeAndCompany } from './daily-logs.rules';

/**
 * One line of a day's log, or of the range's totals: `section` says which (a code, as machine
 * interchange has it); the other cells are those the section fills.
 */
export interface DailyLogCsvRow {
  date: string | null;
  status: string | null;
  signedBy: string | null;
  signedByName: string | null;
  signedAt: string | null;
  section: string;
  trade: string | null;
  company: string | null;
  person: string | null;
  personName: string | null;
  headcount: number | null;
  hours: number | null;
  manHours: number | null;
  hoursLost: number | null;
  description: string | null;
  temperature: number | null;
  wind: string | null;
  precipitation: string | null;
  workStopped: boolean | null;
  /** A crew entry's day: the log's, or the day it was for when it was moved here from that day's signed log (record 129). */
  workDate: string | null;
}

export const DAILY_LOG_CSV_COLUMNS: CsvColumn<DailyLogCsvRow>[] = fieldColumns<DailyLogCsvRow>({
  date: 'date',
  status: 'status',
  signedBy: 'signedBy',
  signedByName: 'signedByName',
  signedAt: 'signedAt',
  section: 'section',
  trade: 'trade',
  company: 'company',
  person: 'person',
  personName: 'personName',
  headcount: 'headcount',
  hours: 'hours',
  manHours: 'manHours',
  hoursLost: 'hoursLost',
  description: 'description',
  temperature: 'temperature',
  wind: 'wind',
  precipitation: 'precipitation',
  workStopped: 'workStopped',
  workDate: 'workDate',
});

const EMPTY: Omit<DailyLogCsvRow, 'section'> = {
  date: null,
  status: null,
  signedBy: null,
  signedByName: null,
  signedAt: null,
  trade: null,
  company: null,
  person: null,
  personName: null,
  headcount: null,
  hours: null,
  manHours: null,
  hoursLost: null,
  description: null,
  temperature: null,
  wind: null,
  precipitation: null,
  workStopped: null,
  workDate: null,
};

/**
 * The range's logs, day by day and section by section (people by e-mail with their name beside
 * it, a visitor, who has no e-mail, by name alone; times in UTC), then
 * the totals: man-hours by trade and company, and the hours lost to delays.
 */
export function csvRowsOf({ context, days }: ExportDays): DailyLogCsvRow[] {
  const rows: DailyLogCsvRow[] = [];
  for (const day of days) {
    const base = { ...EMPTY, date: day.date, status: day.status, signedBy: day.signedBy?.email ?? null, signedByName: day.signedBy?.full_name ?? null, signedAt: day.signedAt };
    const { weather, crew, equipment, deliveries, delays, incidents, visitors, notes } = day.content;
    if (weather) {
      rows.push({ ...base, section: 'weather', description: weather.conditions, temperature: weather.temperature, wind: weather.wind, precipitation: weather.precipitation, workStopped: weather.work_stopped });
    }
    for (const row of crew) rows.push({ ...base, section: 'crew', trade: row.trade, company: row.company, headcount: row.headcount, hours: row.hours, manHours: Math.round(row.headcount * row.hours * 100) / 100 });
    for (const entry of day.entries) {
      rows.push({ ...base, section: 'entry', trade: entry.authorDesignation, company: context.companyName, person: entry.author.email, personName: entry.author.full_name, hours: entry.hours, manHours: entry.hours, description: entry.note, workDate: entry.for_date ?? day.date });
    }
    for (const row of equipment) rows.push({ ...base, section: 'equipment', description: row.name, hours: row.hours });
    for (const row of deliveries) rows.push({ ...base, section: 'delivery', description: row.what, company: row.from });
    for (const row of delays) rows.push({ ...base, section: 'delay', description: row.cause, hoursLost: row.hours_lost });
    for (const row of incidents) rows.push({ ...base, section: row.kind, description: row.description });
    for (const row of visitors) rows.push({ ...base, section: 'visitor', personName: row.name, company: row.company, description: row.purpose });
    if (notes) rows.push({ ...base, section: 'notes', description: notes });
  }
  for (const total of manHoursByTradeAndCompany(days.map((day) => ({ crew: day.content.crew, selfLogged: day.selfLogged })), context.companyName)) {
    rows.push({ ...EMPTY, section: 'total_man_hours', trade: total.trade, company: total.company, headcount: total.headcount, manHours: total.manHours });
  }
  rows.push({ ...EMPTY, section: 'total_hours_lost', hoursLost: hoursLost(days.flatMap((day) => day.content.delays)) });
  return rows;
}
