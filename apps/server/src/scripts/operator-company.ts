import { eq, sql } from 'drizzle-orm';
import { DATABASE_TIMEOUTS, type Db, type DbOrTx } from '../platform';
import { queueSheetFileRemoval } from '../features/sheets/sheets.queries';
import { companies } from '../schema/companies';
import { sheets } from '../schema/sheets';
import { writeCompanyArchive, type ExportSummary } from './company-export';
import { companyNamed } from './operator-password';

/**
 * A whole company's deletion or export runs statements of many seconds on a large company (100,000
 * subtasks: a cascade of half a million rows): the request's 30-s bound on a statement would end them.
 */
export const OPERATOR_TIMEOUTS = { ...DATABASE_TIMEOUTS, answerMs: 60 * 60_000 };

/** What a company holds, as its operator is told before and after deleting it. */
export interface CompanyHoldings {
  company: string;
  people: number;
  projects: number;
  subtasks: number;
  photos: number;
  dailyLogs: number;
  drawings: number;
}

/** One statement: the counts of what deleting the company would remove. */
async function countHoldings(db: DbOrTx, company: { id: number; name: string }): Promise<CompanyHoldings> {
  const id = company.id;
  const result = await db.execute<Omit<CompanyHoldings, 'company'>>(sql`
    select
      (select count(*)::int from users where company_id = ${id} and deleted_at is null) as "people",
      (select count(*)::int from projects where company_id = ${id}) as "projects",
      (select count(*)::int from subtasks where company_id = ${id}) as "subtasks",
      (select count(*)::int from subtask_attachments where company_id = ${id})
        + (select count(*)::int from daily_log_attachments where company_id = ${id}) as "photos",
      (select count(*)::int from daily_logs where company_id = ${id}) as "dailyLogs",
      (select count(*)::int from sheets where company_id = ${id}) as "drawings"
  `);
  const [row] = (result as unknown as { rows: Omit<CompanyHoldings, 'company'>[] }).rows;
  return { company: company.name, ...row! };
}

/** What `npm run delete-company -- "<name>"` would delete, without deleting it. */
export async function describeCompany(db: Db, name: string): Promise<CompanyHoldings> {
  return countHoldings(db, await companyNamed(db, name));
}

/**
 * Deletes a company and everything it holds, in one transaction: its row goes, and by the foreign
 * keys' cascade every row of its people, projects, work, record of work, photos, daily logs,
 * drawings, notifications, invitations, sessions, calendar feeds, keys and queued jobs (mails not
 * yet sent among them). Its drawings' files are removed by a job queued in the same transaction
 * (the platform's own, so the cascade does not take it): by a running instance at once, else at
 * the next start. Signed-in people are signed out on every instance as their rows go (the
 * identity triggers announce it on commit).
 */
export async function deleteCompany(db: Db, name: string): Promise<CompanyHoldings> {
  return db.transaction(async (tx) => {
    const found = await companyNamed(tx, name);
    // Nobody signs up into it, invites into it or renames it while it goes.
    await tx.execute(sql`select id from companies where id = ${found.id} for update`);
    const holdings = await countHoldings(tx, found);
    const drawings = await tx.select({ id: sheets.id, sourcePath: sheets.sourcePath }).from(sheets).where(eq(sheets.companyId, found.id));
    await tx.delete(companies).where(eq(companies.id, found.id));
    await queueSheetFileRemoval(tx, drawings);
    return holdings;
  });
}

/**
 * Everything of a company in one archive (company-export.ts), read in one repeatable-read
 * transaction so that its files agree with each other while people go on working.
 */
export async function exportCompany(db: Db, name: string, file: string, sheetsDir: string): Promise<ExportSummary & { company: string }> {
  return db.transaction(
    async (tx) => {
      const company = await companyNamed(tx, name);
      return { company: company.name, ...(await writeCompanyArchive(tx, company, file, sheetsDir)) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
