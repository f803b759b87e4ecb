/**
 * The daily logs of a range as an Excel workbook for people (DESIGN: labels, names, real dates):
 * a sheet of the days, the crew and the delays, each ending in a total row, the rest of the site
 * record, and the totals by trade and company. Written with the lists' workbook helpers
 * (lib/xlsx.ts), row by row into the answer (decision records 082, 064); its days are the project's,
 * its times (when a day was signed) on the reader's clock, as in every workbook (decision record 094).
 */
import { PassThrough, type Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { formatDateOnly, hoursLost, t, wallClockDate, type Language, type MessageKey } from '@siteboard/shared';
import { addSheet, calendarDate, openWorkbook, type Reader, type SheetKind } from '../../lib/xlsx';
import type { ExportDays } from './daily-logs.queries';
import { dayTotals, manHoursByTradeAndCompany } from './daily-logs.rules';

interface Column {
  header: MessageKey;
  width: number;
  format?: Extract<SheetKind, 'date' | 'time' | 'hours'>;
}

type Cell = string | number | Date | null;

/** A sheet of the workbook: its header row and its rows, then a bold total row when one is given. */
function writeSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, language: Language, name: MessageKey, columns: Column[], rows: Cell[][], total?: Cell[]) {
  const sheet = addSheet(workbook, t(language, name), columns.map((column) => ({ header: t(language, column.header), width: column.width, kind: column.format })), language);
  for (const row of rows) sheet.addRow(row).commit();
  if (total) {
    const totalRow = sheet.addRow(total);
    totalRow.font = { bold: true };
    totalRow.commit();
  }
  sheet.commit();
}

const sum = (values: (number | null)[]) => Math.round(values.reduce<number>((total, value) => total + (value ?? 0), 0) * 100) / 100;

export function writeDailyLogWorkbook({ context, days }: ExportDays, { language, zone }: Reader): Readable {
  const out = new PassThrough();
  const word = (key: MessageKey) => t(language, key);

  const write = async () => {
    const workbook = await openWorkbook(out);
    const dayRows = days.map((day) => {
      const totals = dayTotals(day.content, day.selfLogged);
      const weather = day.content.weather;
      return [
        calendarDate(day.date),
        word(day.status === 'signed' ? 'Signed' : 'Draft'),
        day.signedBy ? (day.signedBy.full_name ?? day.signedBy.email) : null,
        day.signedAt ? wallClockDate(day.signedAt, zone) : null,
        weather?.conditions ?? null,
        weather?.temperature ?? null,
        weather ? word(weather.work_stopped ? 'Yes' : 'No') : null,
        totals.crew_headcount,
        totals.crew_hours,
        totals.hours_lost,
      ];
    });
    writeSheet(
      workbook,
      language,
      'Daily logs',
      [
        { header: 'Date', width: 12, format: 'date' },
        { header: 'Status', width: 10 },
        { header: 'Signed by', width: 26 },
        { header: 'Signed at', width: 17, format: 'time' },
        { header: 'Conditions', width: 20 },
        { header: 'Temperature (°C)', width: 10 },
        { header: 'Work stopped', width: 10 },
        { header: 'Head count', width: 10 },
        { header: 'Man-hours', width: 11, format: 'hours' },
        { header: 'Hours lost', width: 11, format: 'hours' },
      ],
      dayRows,
      [word('Total'), null, null, null, null, null, null, sum(dayRows.map((row) => row[7] as number)), sum(dayRows.map((row) => row[8] as number)), sum(dayRows.map((row) => row[9] as number))],
    );

    const crewRows: Cell[][] = days.flatMap((day) => [
      ...day.content.crew.map((row) => [calendarDate(day.date), row.trade, row.company, null, row.headcount, row.hours, Math.round(row.headcount * row.hours * 100) / 100, calendarDate(day.date)]),
      // A crew entry moved here from an earlier day's signed log says the day its hours were for (record 129).
      ...day.entries
        .filter((entry) => entry.hours !== null)
        .map((entry) => [calendarDate(day.date), entry.authorDesignation, context.companyName, entry.author.full_name ?? entry.author.email, 1, entry.hours, entry.hours, calendarDate(entry.for_date ?? day.date)]),
    ]);
    writeSheet(
      workbook,
      language,
      'Crew',
      [
        { header: 'Date', width: 12, format: 'date' },
        { header: 'Trade', width: 20 },
        { header: 'Company', width: 24 },
        { header: 'Person', width: 26 },
        { header: 'Head count', width: 10 },
        { header: 'Hours', width: 9, format: 'hours' },
        { header: 'Man-hours', width: 11, format: 'hours' },
        { header: 'Work date', width: 12, format: 'date' },
      ],
      crewRows,
      [word('Total'), null, null, null, sum(crewRows.map((row) => row[4] as number)), null, sum(crewRows.map((row) => row[6] as number)), null],
    );

    const delayRows: Cell[][] = days.flatMap((day) => day.content.delays.map((delay) => [calendarDate(day.date), delay.cause, delay.hours_lost]));
    writeSheet(
      workbook,
      language,
      'Delays',
      [
        { header: 'Date', width: 12, format: 'date' },
        { header: 'Cause', width: 50 },
        { header: 'Hours lost', width: 11, format: 'hours' },
      ],
      delayRows,
      [word('Total'), null, hoursLost(days.flatMap((day) => day.content.delays))],
    );

    const recordRows: Cell[][] = days.flatMap((day) => {
      const date = calendarDate(day.date);
      const { equipment, deliveries, incidents, visitors, notes } = day.content;
      return [
        ...equipment.map((row) => [date, word('Equipment'), row.name, row.hours === null ? null : `${row.hours} h`]),
        ...deliveries.map((row) => [date, word('Deliveries'), row.what, row.from]),
        ...incidents.map((row) => [date, word(row.kind === 'incident' ? 'Incident' : 'Safety observation'), row.description, null]),
        ...visitors.map((row) => [date, word('Visitors'), row.name, [row.company, row.purpose].filter(Boolean).join(' · ') || null]),
        ...day.entries
          .filter((entry) => entry.note)
          .map((entry) => [date, word('Crew entries'), entry.note, [entry.author.full_name ?? entry.author.email, entry.for_date && t(language, 'For {date}', { date: formatDateOnly(entry.for_date, language) })].filter(Boolean).join(' · ')]),
        ...(notes ? [[date, word('Notes'), notes, null]] : []),
      ];
    });
    writeSheet(
      workbook,
      language,
      'Site record',
      [
        { header: 'Date', width: 12, format: 'date' },
        { header: 'Section', width: 22 },
        { header: 'Description', width: 60 },
        { header: 'Details', width: 30 },
      ],
      recordRows,
    );

    const trades = manHoursByTradeAndCompany(days.map((day) => ({ crew: day.content.crew, selfLogged: day.selfLogged })), context.companyName);
    writeSheet(
      workbook,
      language,
      'Totals',
      [
        { header: 'Trade', width: 24 },
        { header: 'Company', width: 26 },
        { header: 'Person-days', width: 12 },
        { header: 'Man-hours', width: 12, format: 'hours' },
      ],
      [
        ...trades.map((total) => [total.trade || word('N/A'), total.company, total.headcount, total.manHours]),
        [word('Total'), null, sum(trades.map((total) => total.headcount)), sum(trades.map((total) => total.manHours))],
        [],
        [word('Hours lost to delays'), null, null, hoursLost(days.flatMap((day) => day.content.delays))],
      ],
    );
    await workbook.commit();
  };
  write().catch((error: unknown) => out.destroy(error as Error));
  return out;
}
