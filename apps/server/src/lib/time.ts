import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * "Today" where a person is: the calendar date in a time zone (an IANA name read from a row or a
 * subquery) at an instant, `now()` unless given, computed by the database so that every
 * statement that compares due dates with "today" reads it the same way. Time zones are checked
 * when they are stored.
 */
export function localDate(zone: SQLWrapper, at?: Date): SQL<string> {
  const instant = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  return sql<string>`(timezone(${zone}, ${instant}))::date`;
}
