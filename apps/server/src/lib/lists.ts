/** What the list endpoints share: a page of rows with its total in the same statement, a safe substring search, and every row in batches for an export. */
import { ilike, sql, type Column, type Placeholder } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { FastifyReply } from 'fastify';
import { TOTAL_COUNT_HEADER } from '@siteboard/shared';

export interface PageRequest {
  limit?: number;
  offset?: number;
}

/** Some rows of a list, and how many rows the list matched in all. */
export interface Page<T> {
  items: T[];
  total: number;
}

/** A select column: how many rows the statement matched before its limit and offset, so one statement reads a page and its total. */
export const matchingRowCount = () => sql<number>`count(*) over ()`.mapWith(Number);

/** A case-insensitive substring match in which `%`, `_` and `\` of the text match only themselves. */
/** The ILIKE pattern matching any text that contains `text` (its wildcards escaped). */
export const containingPattern = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

export const containsIgnoringCase = (column: Column, text: string) => ilike(column, containingPattern(text));

/** Applies the page's limit and offset (or placeholders for them) to a dynamic select (`.$dynamic()`). */
export function withPage<T extends PgSelect>(query: T, page: { limit?: number | Placeholder; offset?: number | Placeholder }): T {
  let paged = query;
  if (page.limit !== undefined) paged = paged.limit(page.limit);
  if (page.offset) paged = paged.offset(page.offset);
  return paged;
}

/**
 * The page of rows read with `matchingRowCount()` as `total`. Only an offset past the end reads
 * no row and so no total: then, and only then, `countAll` runs one more statement.
 */
export async function toPage<R extends { total: number }, T>(rows: R[], page: PageRequest, map: (row: R) => T, countAll: () => Promise<number>): Promise<Page<T>> {
  const total = rows[0]?.total ?? (page.offset ? await countAll() : 0);
  return { items: rows.map(map), total };
}

/** What a list route answers: the array the spec's call expects, one page of it, and the number of matching rows in the X-Total-Count header. */
export function sendPage<T>(reply: FastifyReply, page: Page<T>): T[] {
  reply.header(TOTAL_COUNT_HEADER, page.total);
  return page.items;
}

/** How many rows an export reads per statement. */
export const EXPORT_BATCH_SIZE = 1000;

/** Every row of a list read a page at a time in its own order (for lists bounded by a team or a company's people, not by the database). */
export async function* pagedBatches<Row>(readPage: (page: { limit: number; offset: number }) => Promise<Page<Row>>, size: number): AsyncGenerator<Row[]> {
  for (let offset = 0; ; offset += size) {
    const { items } = await readPage({ limit: size, offset });
    if (items.length > 0) yield items;
    if (items.length < size) return;
  }
}

/**
 * Every row of a list, a batch at a time, for an export: each batch resumes after the last row of
 * the one before (keyset paging on the list's order, which ends in the id), so no batch reads what
 * an earlier one read. A batch is read only when the one before has been taken.
 */
export async function* keysetBatches<Row>(readBatch: (last: Row | undefined, size: number) => Promise<Row[]>, size = EXPORT_BATCH_SIZE): AsyncGenerator<Row[]> {
  let last: Row | undefined;
  for (;;) {
    const batch = await readBatch(last, size);
    if (batch.length > 0) yield batch;
    if (batch.length < size) return;
    last = batch.at(-1);
  }
}
