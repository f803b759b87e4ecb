/**
 * CSV answers of the list and report calls (decision record 021): asked for with `format=csv` or
 * `Accept: text/csv`, every matching row, streamed as it is read: the machine-readable interchange
 * (codes, ISO 8601 UTC times, e-mails; decision record 064), headed in the reader's language. A
 * person is their e-mail, the key another program matches on, with their full name in the column
 * beside it, empty when they gave none (decision record 062).
 */
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { readerLanguage } from '../platform';
import { csvHeader, type CsvColumnId } from './csv-headers';
import { datedFileName, sendDownload } from './downloads';

export const CSV_MEDIA_TYPE = 'text/csv';

/**
 * A cell as a spreadsheet must not run it: text that starts with = + - @ (or a tab or carriage
 * return, which some programs skip before reading a formula) is kept as text by a leading
 * apostrophe, as OWASP's advice on CSV injection has it.
 */
export const neutraliseFormula = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/** A value a cell may hold; dates are already `YYYY-MM-DD` text, timestamps ISO 8601. */
export type CsvValue = string | number | boolean | null;

/** One column of a CSV file: its id names its header (csv-headers.ts), `value` reads a row's cell. */
export interface CsvColumn<Row> {
  id: CsvColumnId;
  value: (row: Row) => CsvValue;
}

/** The fields of a row that print as a cell as they are. */
type CsvField<Row> = { [K in keyof Row]: Row[K] extends CsvValue ? K : never }[keyof Row];

/** Columns that each print one field of the row as it is, in the order given: column → field. */
export function fieldColumns<Row>(fields: Partial<Record<CsvColumnId, CsvField<Row>>>): CsvColumn<Row>[] {
  return Object.entries(fields).map(([id, field]) => ({ id: id as CsvColumnId, value: (row: Row) => row[field as CsvField<Row>] as CsvValue }));
}

/** What a CSV answer is: a file name (without date and extension), its columns, and its rows a batch at a time. */
export interface CsvFile<Row> {
  name: string;
  /** The day it was made, in the reader's zone, for the file's name; unset when the name already says the days the file covers. */
  day?: string;
  columns: CsvColumn<Row>[];
  batches: AsyncIterable<Row[]>;
}

/**
 * Sends the file as it is read: each batch is read when the reply has room for it (the stream's
 * backpressure), so memory holds one batch, never the whole file. The first batch is read before
 * anything is sent, so a failure there is still an error answer rather than a cut-off file.
 * UTF-8 with a byte order mark: spreadsheet programs then read accents right.
 */
export async function sendCsv<Row>(reply: FastifyReply, file: CsvFile<Row>): Promise<FastifyReply> {
  const batches = file.batches[Symbol.asyncIterator]();
  const first = await batches.next();
  async function* records() {
    const language = readerLanguage(reply.request);
    yield file.columns.map((column) => csvHeader(column.id, language));
    for (let batch = first; !batch.done; batch = await batches.next()) {
      for (const row of batch.value) yield file.columns.map((column) => column.value(row));
    }
  }
  const csv = stringify({
    bom: true,
    cast: { string: neutraliseFormula, boolean: (value) => String(value) },
  });
  // Fastify logs a stream that fails and ends the answer; a client that goes away stops the reads.
  const body = pipeline(Readable.from(records()), csv, () => {});
  return sendDownload(reply, `${CSV_MEDIA_TYPE}; charset=utf-8`, datedFileName(file.name, 'csv', file.day), body);
}
