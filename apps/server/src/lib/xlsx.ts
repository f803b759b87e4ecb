/**
 * Excel workbooks of the lists and reports, for people (decision record 064): labels in the
 * reader's language, people by name, dates and times as date cells in the reader's zone, numbers
 * as numbers, a bold frozen header row. Written with exceljs's streaming WorkbookWriter into the
 * answer a batch of rows at a time, so memory holds a batch, never the file. CSV stays the
 * machine-readable interchange (lib/csv.ts).
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { dateInZone, t, wallClockDate, XLSX_MEDIA_TYPE, type Language, type MessageKey } from '@siteboard/shared';
import { csvHeader, type CsvColumnId } from './csv-headers';
import { datedFileName, sendDownload } from './downloads';

/** Who reads the workbook: the language of its words and the zone of its times. */
export interface Reader {
  language: Language;
  zone: string;
}

/**
 * How a column's values become cells: text; lines (one value a line, wrapped); a number; hours
 * (two decimals); a date (`YYYY-MM-DD`) or a time (an ISO 8601 instant, shown in the reader's zone)
 * as a date cell.
 */
export type SheetKind = 'text' | 'lines' | 'number' | 'hours' | 'date' | 'time';

/** One column of a list's sheet: its id names its header (csv-headers.ts), `value` reads a row's value for this reader. */
export interface SheetColumn<Row> {
  id: CsvColumnId;
  kind?: SheetKind;
  value: (row: Row, reader: Reader) => string | number | null;
}

/** A list's workbook: a file name (without date and extension), the sheet's title, its columns, and its rows a batch at a time. */
export interface SheetFile<Row> {
  name: string;
  title: MessageKey;
  columns: SheetColumn<Row>[];
  batches: AsyncIterable<Row[]>;
}

/** How each language writes a date in a cell (the value itself is a real date, which the spreadsheet program may show otherwise). */
const DATE_FORMAT: Record<Language, string> = { en: 'yyyy-mm-dd', de: 'dd.mm.yyyy', es: 'dd/mm/yyyy', fr: 'dd/mm/yyyy' };

function styleOf(kind: SheetKind | undefined, language: Language): Partial<ExcelJS.Style> {
  switch (kind) {
    case 'date':
      return { numFmt: DATE_FORMAT[language] };
    case 'time':
      return { numFmt: `${DATE_FORMAT[language]} hh:mm` };
    case 'hours':
      return { numFmt: '0.00' };
    case 'lines':
      return { alignment: { wrapText: true, vertical: 'top' } };
    default:
      return {};
  }
}

/** A calendar date as a cell's date: midnight UTC, as Excel's dates have no zone. */
export const calendarDate = (date: string) => new Date(`${date}T00:00:00Z`);

/**
 * A workbook written into `out` as it is made. exceljs loads with the first workbook, not at the
 * server's start: it took ~0.8 s and 7.6 MB of heap (27 MB resident) that most servers' lives
 * never use (as sharp, decision record 016).
 */
export async function openWorkbook(out: PassThrough): Promise<ExcelJS.stream.xlsx.WorkbookWriter> {
  const { default: excel } = await import('exceljs');
  const workbook = new excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  workbook.creator = 'SiteBoard';
  return workbook;
}

/** A sheet's column: its header (already in the reader's words), its width in characters, and how its cells read. */
export interface SheetLayout {
  header: string;
  width: number;
  kind?: SheetKind;
}

/** A sheet with a bold header row that stays in view when the rows scroll. */
export function addSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, title: string, columns: SheetLayout[], language: Language): ExcelJS.Worksheet {
  // Excel refuses a sheet name over 31 characters or with any of []:*?/\.
  const sheet = workbook.addWorksheet(title.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((column) => ({ header: column.header, width: column.width, style: styleOf(column.kind, language) }));
  sheet.getRow(1).font = { bold: true };
  return sheet;
}

/**
 * Waits until the sheet's written rows have gone on towards the answer; false when the answer went
 * away. exceljs writes a sheet's XML into its zip entry without heeding that entry's backpressure,
 * so rows added faster than they are compressed and sent pile up there (4 MB of every 10,000 rows
 * in a trial): between batches the writer waits for that entry stream (exceljs 4's `stream` of a
 * streamed sheet, piped into archiver's entry) to drain. The export bench holds memory to it.
 */
export async function drained(sheet: ExcelJS.Worksheet, out: PassThrough): Promise<boolean> {
  type EntryStream = NodeJS.EventEmitter & { _writableState?: { needDrain: boolean } };
  const entry = (sheet as unknown as { stream: { pipes: EntryStream[] } }).stream.pipes[0];
  if (entry?._writableState?.needDrain) {
    const stop = new AbortController();
    try {
      await Promise.race([once(entry, 'drain', { signal: stop.signal }), once(out, 'close', { signal: stop.signal })]);
    } finally {
      stop.abort();
    }
  }
  return !out.destroyed;
}

/** A value as its cell holds it. */
function cellOf<Row>(column: SheetColumn<Row>, row: Row, reader: Reader): string | number | Date | null {
  const value = column.value(row, reader);
  if (value === null || typeof value === 'number') return value;
  if (column.kind === 'date') return calendarDate(value);
  if (column.kind === 'time') return wallClockDate(value, reader.zone);
  return value;
}

/** How many characters a value shows. */
function shownLength(value: string | number | null, kind: SheetKind | undefined): number {
  if (value === null) return 0;
  if (kind === 'date') return 10;
  if (kind === 'time') return 16;
  return Math.max(...String(value).split('\n').map((line) => line.length));
}

/** A width that fits the header and the first rows' values, within bounds a screen can show. */
const fittingWidth = <Row>(column: SheetColumn<Row>, header: string, rows: Row[], reader: Reader) =>
  Math.min(60, Math.max(8, header.length + 2, ...rows.map((row) => shownLength(column.value(row, reader), column.kind) + 2)));

/**
 * Sends the list's workbook as it is written: each batch is read once the one before has gone
 * on (`drained`). The first batch is read before anything is sent, so a failure there is still an
 * error answer rather than a cut-off file, and the columns' widths fit it.
 */
export async function sendXlsx<Row>(reply: FastifyReply, file: SheetFile<Row>, reader: Reader): Promise<FastifyReply> {
  const batches = file.batches[Symbol.asyncIterator]();
  const first = await batches.next();
  const out = new PassThrough();
  const workbook = await openWorkbook(out);
  const firstRows = first.done ? [] : first.value;
  const layout = file.columns.map((column) => {
    const header = csvHeader(column.id, reader.language);
    return { header, kind: column.kind, width: fittingWidth(column, header, firstRows, reader) };
  });
  const sheet = addSheet(workbook, t(reader.language, file.title), layout, reader.language);
  const write = async () => {
    for (let batch = first; !batch.done; batch = await batches.next()) {
      for (const row of batch.value) sheet.addRow(file.columns.map((column) => cellOf(column, row, reader))).commit();
      if (!(await drained(sheet, out))) {
        await batches.return?.();
        return;
      }
    }
    sheet.commit();
    await workbook.commit();
  };
  // Fastify logs a stream that fails and ends the answer.
  write().catch((error: unknown) => out.destroy(error as Error));
  return sendDownload(reply, XLSX_MEDIA_TYPE, datedFileName(file.name, 'xlsx', dateInZone(reader.zone)), out);
}
