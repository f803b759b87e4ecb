import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { sql } from 'drizzle-orm';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import type { DbOrTx } from '../platform';

/**
 * The company's tables kept out of its archive: the server's own bookkeeping (queued jobs, request
 * keys, sign-in sessions), and secrets whose rows say nothing without them (calendar feeds'
 * addresses, password reset links). A table that names a company and is in neither list fails
 * `company-export.test.ts`: each new table is a decision.
 */
export const NOT_EXPORTED = ['jobs', 'idempotency_keys', 'refresh_tokens', 'calendar_feeds', 'password_resets'] as const;
/** Columns no archive carries: password and link hashes. */
const SECRET_COLUMNS = new Set(['password_hash', 'token_hash']);
/** Rows read at a time: memory holds one batch of one table, whatever the company's size. */
const BATCH = 2_000;

const README = `SiteBoard: everything of one company

Each .csv file is one table of the company's data, one row per line, UTF-8, with a header row.
Times are ISO 8601 in UTC; dates are YYYY-MM-DD; ids link the tables (subtasks.csv's major_task_id
is a row of major_tasks.csv, and so on). Passwords and sign-in links are not included.
Texts are exactly as people wrote them: a spreadsheet program may take one that starts with
= + - or @ for a formula, so import the files with every column as text rather than opening them.

- company.csv: the company itself
- users.csv, team_members.csv: its people (deleted_at is set for people no longer active), who manages whom
- invitations.csv: invitations sent and not yet accepted
- projects.csv, major_tasks.csv, subtasks.csv: the work (pin_sheet_id, pin_x, pin_y: where a subtask is pinned on a drawing, 0 to 1 across and down)
- subtask_activity.csv: the record of work (status changes with their reasons, comments, edits, photos)
- subtask_attachments.csv and photos/subtask-<id>.<ext>: the photos of the record of work
- daily_logs.csv, daily_log_entries.csv, daily_log_amendments.csv: the daily site logs (content is JSON)
- daily_log_attachments.csv and photos/daily-log-<id>.<ext>: the daily logs' photos
- sheets.csv and drawings/sheet-<id>.jpeg: the drawings, each as its preview image
- notifications.csv, notification_recipients.csv: who was told what, and when they read it
`;

export interface ExportSummary {
  tables: number;
  rows: number;
  photos: number;
  drawings: number;
  bytes: number;
}

/**
 * A cell as a CSV file holds it: times as ISO 8601 UTC, true/false as words, JSON as its text, every
 * text exactly as written (a mobile number "+49 …" stays so: the archive is the company's data, not a
 * spreadsheet; README.txt says how to open the files in one safely).
 */
function cell(value: unknown, type: string): string | number | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (type === 'timestamp with time zone') return new Date(String(value).replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')).toISOString();
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif' };

/**
 * Writes the company's archive (a zip file) to `file`: README.txt, one CSV per table that names the
 * company (every column but secrets), each photo as its image file and each drawing as its
 * preview. Read a batch at a time and written as read; the zip is written to `<file>.partial` and
 * renamed once whole, so a failure never leaves a file that looks complete.
 */
export async function writeCompanyArchive(db: DbOrTx, company: { id: number }, file: string, sheetsDir: string): Promise<ExportSummary> {
  const partial = `${file}.partial`;
  const out = fs.createWriteStream(partial, { mode: 0o600 });
  const summary: ExportSummary = { tables: 0, rows: 0, photos: 0, drawings: 0, bytes: 0 };
  let failed: Error | undefined;
  const closed = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', (error) => {
      failed ??= error;
      reject(error);
    });
  });
  // Awaited once the archive is whole; a failure before then (a full disk) is read through `failed`
  // and must not also end the process as an unhandled rejection (CONTRIBUTING, rule 11).
  closed.catch(() => undefined);
  // fflate's Zip and ZipDeflate work synchronously: each part is compressed and handed here as pushed.
  const zip = new Zip((error, chunk, final) => {
    if (error) failed ??= error;
    else out.write(chunk);
    if (final || error) out.end();
  });
  /** Waits while the disk is behind, so memory holds about one batch whatever the company's size. */
  async function drained() {
    if (failed) throw failed;
    if (out.writableNeedDrain) await once(out, 'drain');
    if (failed) throw failed;
  }
  /** Adds a file whose content comes in parts: `push(part)`, then `end()`. */
  function entry(name: string, compress: boolean) {
    const file = compress ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    zip.add(file);
    return {
      push: async (data: Uint8Array) => {
        file.push(data);
        await drained();
      },
      end: async () => {
        file.push(new Uint8Array(0), true);
        await drained();
      },
    };
  }
  async function add(name: string, data: Uint8Array, compress: boolean) {
    const file = entry(name, compress);
    await file.push(data);
    await file.end();
  }
  try {
    // A file that cannot be made (no such folder, no right to write there) is said before anything is read.
    await once(out, 'open');
    await add('README.txt', Buffer.from(README), true);
    const columns = rowsOf<Column & { table_name: string }>(
      await db.execute(sql`
        select table_name, column_name as name, data_type as type from information_schema.columns
        where table_schema = 'public' and (table_name = 'companies' or table_name in (select table_name from information_schema.columns where table_schema = 'public' and column_name = 'company_id'))
        order by table_name, ordinal_position
      `),
    );
    const tables = new Map<string, Column[]>();
    for (const { table_name: table, ...column } of columns) tables.set(table, [...(tables.get(table) ?? []), column]);
    const companyRows = rowsOf<Record<string, unknown>>(await db.execute(sql`select * from companies where id = ${company.id}`));
    await add('company.csv', csvOf(tables.get('companies')!, companyRows, true), true);
    tables.delete('companies');
    summary.tables += 1;
    summary.rows += 1;

    for (const [table, all] of tables) {
      if ((NOT_EXPORTED as readonly string[]).includes(table)) continue;
      const hasId = all.some((column) => column.name === 'id');
      const file = entry(`${table}.csv`, true);
      let last = 0;
      let header = true;
      for (;;) {
        const batch = rowsOf<Record<string, unknown>>(
          hasId
            ? await db.execute(sql`select * from ${sql.identifier(table)} where company_id = ${company.id} and id > ${last} order by id limit ${BATCH}`)
            : await db.execute(sql`select * from ${sql.identifier(table)} where company_id = ${company.id}`),
        );
        await file.push(csvOf(all, batch, header));
        header = false;
        summary.rows += batch.length;
        if (!hasId || batch.length < BATCH) break;
        last = Number(batch.at(-1)!.id);
      }
      await file.end();
      summary.tables += 1;
    }

    for (const photos of [
      { prefix: 'subtask', facts: 'subtask_attachments', data: 'attachment_data' },
      { prefix: 'daily-log', facts: 'daily_log_attachments', data: 'daily_log_attachment_data' },
    ]) {
      let last = 0;
      for (;;) {
        // One photo at a time: its bytes are the largest thing a company has.
        const [photo] = rowsOf<{ id: number; content_type: string; image: string }>(
          await db.execute(sql`
            select f.id, f.content_type, encode(d.image, 'base64') as image
            from ${sql.identifier(photos.facts)} f join ${sql.identifier(photos.data)} d on d.attachment_id = f.id
            where f.company_id = ${company.id} and f.id > ${last} order by f.id limit 1
          `),
        );
        if (!photo) break;
        await add(`photos/${photos.prefix}-${photo.id}.${EXTENSIONS[photo.content_type] ?? 'bin'}`, Buffer.from(photo.image, 'base64'), false);
        summary.photos += 1;
        last = photo.id;
      }
    }

    const sheetIds = rowsOf<{ id: number }>(await db.execute(sql`select id from sheets where company_id = ${company.id} and status = 'ready' order by id`));
    for (const { id } of sheetIds) {
      const preview = await fs.promises.readFile(path.join(sheetsDir, String(id), 'preview.jpeg')).catch(() => null);
      if (!preview) continue;
      await add(`drawings/sheet-${id}.jpeg`, preview, false);
      summary.drawings += 1;
    }
    zip.end();
    await closed;
    if (failed) throw failed;
    await fs.promises.rename(partial, file);
    summary.bytes = (await fs.promises.stat(file)).size;
    return summary;
  } catch (error) {
    out.destroy();
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
}

interface Column {
  name: string;
  type: string;
}

/** Rows as CSV lines (with the header row first when asked): every column given but the secret ones, in that order. */
function csvOf(columns: Column[], rows: Record<string, unknown>[], header: boolean): Buffer {
  const kept = columns.filter((column) => !SECRET_COLUMNS.has(column.name));
  const lines = rows.map((row) => kept.map((column) => cell(row[column.name], column.type)));
  return Buffer.from(stringify(header ? [kept.map((column) => column.name), ...lines] : lines));
}
