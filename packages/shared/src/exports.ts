import { z } from 'zod';

/**
 * `format` of the list and report calls: `csv` answers every matching row (no paging) as a CSV
 * download instead of the JSON array. `Accept: text/csv` asks for the same.
 */
export const exportFormatParam = {
  format: z
    .enum(['json', 'csv'], { error: 'format must be json or csv.' })
    .optional()
    .meta({ description: 'csv: every matching row (limit and offset ignored) as a CSV download, UTF-8 with a byte order mark' }),
};
