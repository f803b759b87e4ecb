import { eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { companies } from '../schema/companies';
import { users } from '../schema/users';
import type { DbOrTx } from '../platform';

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

/**
 * A person's time zone: their own, else their company's (an IANA name, as a subquery). Their
 * "today", their dashboards and their reminders follow it.
 */
export function personZone(userId: SQLWrapper | number): SQL<string> {
  return sql<string>`(select coalesce(${users.timezone}, ${companies.timezone}) from ${users} join ${companies} on ${companies.id} = ${users.companyId} where ${users.id} = ${userId})`;
}

/** A person's time zone (`personZone`) read on its own: one statement, for what is written outside SQL (a workbook's times). */
export async function personZoneOf(db: DbOrTx, userId: number): Promise<string> {
  const [row] = await db
    .select({ zone: sql<string>`coalesce(${users.timezone}, ${companies.timezone})` })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId));
  return row!.zone;
}
