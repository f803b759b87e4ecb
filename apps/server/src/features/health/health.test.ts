import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/build-app';

describeEachDatabase('health', (ctx) => {
  it('answers ok when the database is reachable', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers liveness without asking the database', async () => {
    ctx.queries.length = 0;
    const response = await ctx.app.inject({ method: 'GET', url: '/api/health/live/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(ctx.queries).toEqual([]);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/does-not-exist/' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ detail: 'Not found.' });
  });
});
