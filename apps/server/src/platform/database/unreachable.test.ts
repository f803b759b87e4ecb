import { describe, expect, it } from 'vitest';
import { describeUnreachableDatabase } from './unreachable';

const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
const timeouts = { connectMs: 5_000, answerMs: 30_000, heartbeatMs: 10_000 };

describe('the start-up line for a database it cannot reach', () => {
  it('names scheme, host, port and database, never the login', () => {
    expect(describeUnreachableDatabase(refused, 'postgres://siteboard:S3cret@db.internal:5433/siteboard', timeouts)).toBe(
      'SiteBoard cannot reach its database at postgres://db.internal:5433/siteboard (DATABASE_URL): the connection was refused (is PostgreSQL running there, on that port?).',
    );
  });

  it.each([
    // An unencoded `/` ends the login early: the parser reads the rest of the password into the host or path.
    'postgres://siteboard:7/Qk+x9=@127.0.0.1:5432/siteboard',
    'postgres://siteboard:ab/c@d@db.internal/siteboard',
  ])('names only the variable when the password spills out of the login (%s)', (url) => {
    const line = describeUnreachableDatabase(refused, url, timeouts)!;

    expect(line).toBe('SiteBoard cannot reach its database at DATABASE_URL: the connection was refused (is PostgreSQL running there, on that port?).');
    expect(line).not.toMatch(/Qk|ab\/c/);
  });
});
