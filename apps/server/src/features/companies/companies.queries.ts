import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { companies } from '../../db/schema/companies';

export function listCompanies(db: DbOrTx) {
  return db.select({ id: companies.id, name: companies.name }).from(companies).orderBy(asc(companies.name));
}

export async function findCompanyByName(db: DbOrTx, name: string) {
  const [row] = await db
    .select({ id: companies.id, name: companies.name, passwordHash: companies.passwordHash })
    .from(companies)
    .where(eq(sql`lower(${companies.name})`, name.trim().toLowerCase()));
  return row;
}

export async function insertCompany(db: DbOrTx, values: { name: string; passwordHash: string; timezone: string }) {
  const [row] = await db
    .insert(companies)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: companies.id, name: companies.name });
  return row;
}

