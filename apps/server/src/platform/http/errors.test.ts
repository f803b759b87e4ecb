import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/build-app';
import { unique } from '../../test/factories';
import { whileRefusingInserts } from '../../test/refuse-inserts';

const logLines: string[] = [];

describeEachDatabase(
  'errors',
  (ctx) => {
    it("logs a failed statement's text and the database's reason, never the values it was given", async () => {
      const poison = unique('Poisoned Company');
      await whileRefusingInserts(ctx.app.db, { table: 'companies', column: 'name', value: poison }, async () => {
        logLines.length = 0;
        const response = await ctx.app.inject({
          method: 'POST',
          url: '/api/signup/',
          payload: { company_name: poison, company_password: 'company secret 42', email: `${unique('admin')}@example.test`, password: 'admin secret 42' },
          remoteAddress: '10.61.0.1',
        });

        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({ detail: 'Internal server error.' });
        const log = logLines.join('');
        expect(log).toContain('request failed');
        expect(log).toContain('insert into \\"companies\\"');
        expect(log).toContain('refused for the test');
        expect(log).not.toContain(poison);
        expect(log).not.toContain('$argon2');
      });
    });
  },
  { logger: { level: 'error', stream: { write: (line: string) => void logLines.push(line) } } },
);
