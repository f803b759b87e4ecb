/**
 * Answers built as JSON by PostgreSQL. For nested rows (an opened project's 100 subtasks, each
 * with its people, major task and project) reading column by column cost the server more than
 * PostgreSQL spends writing the JSON: every field parsed and mapped by drizzle, every timestamp
 * made a Date and formatted back. One JSON value per row is parsed natively instead. Flat lists
 * (the notifications) stay rows: there the JSON cost PostgreSQL more than it saved.
 */
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** A timestamp as JavaScript's toISOString writes it (UTC, milliseconds cut, not rounded), so the answers read as before. */
export const isoTimestamp = (value: SQLWrapper) => sql<string | null>`to_char(${value} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const JSON_KEY = /^[a-z_]+$/;

/**
 * A JSON object of these keys (the API's own field names, never input) and values. Written as the
 * row of a sub-select: PostgreSQL 15 writes a row as JSON faster than `json_build_object`, which
 * looks up every argument's type on every call (decision record 006).
 */
export function jsonObject<T = unknown>(fields: Record<string, SQLWrapper>): SQL<T> {
  const columns = Object.entries(fields).map(([key, value]) => {
    if (!JSON_KEY.test(key)) throw new Error(`Not a JSON field name: ${key}`);
    return sql`${value} as "${sql.raw(key)}"`;
  });
  return sql<T>`(select row_to_json(fields) from (select ${sql.join(columns, sql`, `)}) fields)`;
}

/** `{id, email, full_name}` of a left-joined person, null where no one joined. */
export const personJson = (id: SQLWrapper, email: SQLWrapper, fullName: SQLWrapper) =>
  sql<{ id: number; email: string; full_name: string | null } | null>`case when ${id} is null then null else ${jsonObject({ id, email, full_name: fullName })} end`;

/** The values as a JSON array in this order: `[]`, not null, when there is none. */
export const jsonArray = <T>(value: SQL<T>, orderBy: SQL[]) => sql<T[]>`coalesce(json_agg(${value} order by ${sql.join(orderBy, sql`, `)}), '[]')`;
