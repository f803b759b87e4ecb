import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { existingPgliteSnapshot } from '../../test/database-templates';
import { companies } from '../../schema/companies';
import { openDatabase, type Database } from './client';

const companyNames = async (database: Database) => (await database.db.select({ name: companies.name }).from(companies)).map((row) => row.name);
const openInMemory = () => openDatabase({ kind: 'pglite', dataDir: null, snapshot: existingPgliteSnapshot(), keepThread: true });

// Tests keep the threads of their in-memory databases for the next ones (embedded.ts): each test
// file still gets a database of its own.
describe('in-memory databases on kept threads', () => {
  it('start empty, whatever the database before them on the same thread held', async () => {
    const first = await openInMemory();
    await first.db.insert(companies).values({ name: 'North Yard', passwordHash: 'x' });
    expect(await companyNames(first)).toEqual(['North Yard']);
    await first.close();

    const second = await openInMemory();
    try {
      expect(await companyNames(second)).toEqual([]);
    } finally {
      await second.close();
    }
  });

  it('are apart from each other while both are open', async () => {
    const [first, second] = await Promise.all([openInMemory(), openInMemory()]);
    try {
      await first.db.insert(companies).values({ name: 'North Yard', passwordHash: 'x' });
      await second.db.insert(companies).values({ name: 'South Yard', passwordHash: 'x' });

      expect(await companyNames(first)).toEqual(['North Yard']);
      expect(await companyNames(second)).toEqual(['South Yard']);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe("the embedded database's own reports", () => {
  it("reach the server's log from its thread, not the thread's console", async () => {
    const reports: { level: string; fields: Record<string, unknown>; message: string }[] = [];
    const log = {
      warn: (fields: Record<string, unknown>, message: string) => void reports.push({ level: 'warn', fields, message }),
      error: (fields: Record<string, unknown>, message: string) => void reports.push({ level: 'error', fields, message }),
    };
    const database = await openDatabase({ kind: 'pglite', dataDir: null, snapshot: existingPgliteSnapshot(), log });
    try {
      // PGlite takes no COPY from a client: the protocol's synchronisation is lost, and the
      // embedded database stops serving (embedded-session-server.ts) — the worst it has to report.
      await expect(database.db.execute(sql`copy companies from stdin`)).rejects.toThrow();
      await vi.waitFor(() => expect(reports.find((report) => report.level === 'error')).toBeDefined());
      expect(reports.find((report) => report.level === 'error')).toEqual({ level: 'error', fields: { embedded: true }, message: expect.stringMatching(/^The embedded database failed and stopped serving: /) });
    } finally {
      await database.close().catch(() => {});
    }
  });
});
