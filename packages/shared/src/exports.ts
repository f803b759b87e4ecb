import { z } from 'zod';

/** The answers a list or report call can give: its JSON page, or every matching row as a file. */
export const EXPORT_FORMATS = ['json', 'csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The media type of an Excel workbook (Office Open XML), as `Accept` asks for it. */
export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * `format` of the list and report calls: `csv` answers every matching row (no paging) as a CSV
 * download for machines (codes, ISO 8601 UTC, e-mails); `xlsx` the same rows as an Excel workbook
 * for people (labels in the reader's language, names, dates in the reader's zone). `Accept:
 * text/csv` or the workbook's media type asks for the same.
 */
export const exportFormatParam = {
  format: z
    .enum(EXPORT_FORMATS, { error: 'format must be json, csv or xlsx.' })
    .optional()
    .meta({
      description:
        'csv: every matching row (limit and offset ignored) as a CSV download, UTF-8 with a byte order mark, for machines: codes, ISO 8601 UTC times, e-mails. xlsx: the same rows as an Excel workbook for people: labels in the reader\'s language, people by name, dates and times as date cells in the reader\'s time zone, a frozen header row.',
    }),
};
