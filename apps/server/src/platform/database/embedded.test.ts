import { describe, expect, it } from 'vitest';
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
