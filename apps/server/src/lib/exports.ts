/**
 * The list and report calls' answers besides their JSON page (decision records 021, 064): every
 * matching row as CSV for machines, or as an Excel workbook for people, asked for with `format`
 * or, without it, by `Accept`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import Negotiator from 'negotiator';
import { z } from 'zod';
import { dateInZone, XLSX_MEDIA_TYPE, type ExportFormat, type MessageKey } from '@siteboard/shared';
import { readerLanguage } from '../platform';
import { CSV_MEDIA_TYPE, sendCsv, type CsvColumn } from './csv';
import { personZoneOf } from './time';
import { sendXlsx, type SheetColumn } from './xlsx';

/**
 * The answer asked for: `format`, or with no `format` the one the Accept header prefers (a
 * browser's `*\/*` gets JSON, as it always has).
 */
export function exportFormat(request: Pick<FastifyRequest, 'raw'> & { query: { format?: ExportFormat } }): ExportFormat {
  const { format } = request.query;
  if (format) return format;
  const preferred = new Negotiator(request.raw).mediaType(['application/json', CSV_MEDIA_TYPE, XLSX_MEDIA_TYPE]);
  return preferred === CSV_MEDIA_TYPE ? 'csv' : preferred === XLSX_MEDIA_TYPE ? 'xlsx' : 'json';
}

/**
 * A list as a file: its name (without date and extension), its sheet's title, its rows a batch at
 * a time, and its columns as CSV (codes, ISO 8601 UTC, e-mails) and as a sheet (labels, names,
 * date cells) print them.
 */
export interface ListExport<Row> {
  name: string;
  title: MessageKey;
  batches: AsyncIterable<Row[]>;
  csv: CsvColumn<Row>[];
  sheet: SheetColumn<Row>[];
}

/**
 * A list route's answer in the format asked: the JSON `list()` answers, or every row of `file()`
 * as CSV or as a workbook in the reader's language and zone.
 */
export async function sendListAs<T, Row>(request: FastifyRequest & { query: { format?: ExportFormat } }, reply: FastifyReply, list: () => Promise<T>, file: () => ListExport<Row> | Promise<ListExport<Row>>) {
  const format = exportFormat(request);
  if (format === 'json') return list();
  const { name, title, batches, csv, sheet } = await file();
  // The file is named for the day it was made on the reader's calendar, not the server's.
  const zone = await personZoneOf(request.ctx.db, request.ctx.user.id);
  if (format === 'csv') return sendCsv(reply, { name, columns: csv, batches, day: dateInZone(zone) });
  return sendXlsx(reply, { name, title, columns: sheet, batches }, { language: readerLanguage(request), zone });
}

/** A list route's success answer as the OpenAPI document shows it: the JSON `schema`, or a file when asked. */
export const jsonOrFiles = <T extends z.ZodType>(schema: T) => ({
  description:
    'The JSON array; with format=csv (or Accept: text/csv) every matching row as a CSV download for machines (codes, ISO 8601 UTC times, e-mails); with format=xlsx (or Accept: ' +
    `${XLSX_MEDIA_TYPE}) the same rows as an Excel workbook for people (labels in the reader's language, names, dates and times in the reader's time zone)`,
  content: { 'application/json': { schema }, [CSV_MEDIA_TYPE]: { schema: z.string() }, [XLSX_MEDIA_TYPE]: { schema: z.string().meta({ format: 'binary' }) } },
});
