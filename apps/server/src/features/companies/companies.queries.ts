import { asc, eq, sql } from 'drizzle-orm';
import type { Language } from '@siteboard/shared';
import type { DbOrTx } from '../../platform';
import { companies } from '../../schema/companies';
import { matchingRowCount, toPage, withPage, type Page, type PageRequest } from '../../lib/lists';

/** Companies by name, a page of them with how many there are; with `companyId`, only that one. */
export async function listCompanies(db: DbOrTx, filter: { companyId?: number }, page: PageRequest): Promise<Page<{ id: number; name: string }>> {
  const query = db
    .select({ id: companies.id, name: companies.name, total: matchingRowCount() })
    .from(companies)
    .where(filter.companyId === undefined ? undefined : eq(companies.id, filter.companyId))
    .orderBy(asc(companies.name), asc(companies.id))
    .$dynamic();
  const rows = await withPage(query, page);
  return toPage(rows, page, ({ id, name }) => ({ id, name }), async () => (await listCompanies(db, filter, { limit: 1 })).total);
}

export async function companyExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.id, id));
  return row !== undefined;
}

export async function findCompanyByName(db: DbOrTx, name: string) {
  const [row] = await db
    .select({ id: companies.id, name: companies.name, passwordHash: companies.passwordHash })
    .from(companies)
    .where(eq(sql`lower(${companies.name})`, name.trim().toLowerCase()));
  return row;
}

export async function insertCompany(db: DbOrTx, values: { name: string; passwordHash: string; timezone: string; defaultLanguage: Language }) {
  const [row] = await db
    .insert(companies)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: companies.id, name: companies.name });
  return row;
}

