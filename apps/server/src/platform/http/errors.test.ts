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

    // A restart or a failover of PostgreSQL under a write: the app answers 503 (the offline app's
    // queue sends it again) instead of ending the process with every other request.
    it('answers a request whose database connection ends under it with 503, and serves the next', async ({ skip }) => {
      if (ctx.kind !== 'postgres') skip();
      const lost = unique('Lost Company');
      const signup = (company: string) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/signup/',
          headers: { 'accept-language': 'de' },
          payload: { company_name: company, company_password: 'company secret 42', email: `${unique('admin')}@example.test`, password: 'admin secret 42' },
          remoteAddress: '10.61.0.2',
        });
      const response = await whileRefusingInserts(ctx.app.db, { table: 'companies', column: 'name', value: lost, endConnection: true }, () => signup(lost));

      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('1');
      expect(response.json()).toEqual({ detail: 'Die Verbindung zur Datenbank ist abgebrochen. Versuchen Sie es gleich noch einmal.' });
      expect((await signup(lost)).statusCode).toBe(201);
    });
  },
  { logger: { level: 'error', stream: { write: (line: string) => void logLines.push(line) } } },
);
