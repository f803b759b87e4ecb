import { eq, sql } from 'drizzle-orm';
import type { Language } from '@siteboard/shared';
import type { DbOrTx } from '../../platform';
import { companies } from '../../schema/companies';

/** The unique index behind case-insensitive company names. */
export const COMPANY_NAME_INDEX = 'companies_name_lower_key';

const settingsColumns = { id: companies.id, name: companies.name, timezone: companies.timezone, default_language: sql<Language>`${companies.defaultLanguage}` };

export async function findCompanySettings(db: DbOrTx, companyId: number) {
  const [row] = await db.select(settingsColumns).from(companies).where(eq(companies.id, companyId));
  return row;
}

export async function updateCompanySettings(db: DbOrTx, companyId: number, values: { name?: string; timezone?: string; defaultLanguage?: Language }) {
  const [row] = await db.update(companies).set(values).where(eq(companies.id, companyId)).returning(settingsColumns);
  return row;
}

/** The company password everyone types with its name on the sign-in page; false: no such company. */
export async function setCompanyPasswordHash(db: DbOrTx, companyId: number, passwordHash: string): Promise<boolean> {
  const rows = await db.update(companies).set({ passwordHash }).where(eq(companies.id, companyId)).returning({ id: companies.id });
  return rows.length > 0;
}
