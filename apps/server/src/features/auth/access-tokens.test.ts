import { createDecoder, createSigner } from 'fast-jwt';
import { expect, it } from 'vitest';
import { describeEachDatabase, TEST_JWT_SECRET } from '../../test/build-app';
import { createCompany, injectAs, loginAs } from '../../test/factories';

const decode = createDecoder();

describeEachDatabase('access tokens', (ctx) => {
  it('are refused without an expiry, even signed with the right key for a live login', async () => {
    const company = await createCompany(ctx.app.db);
    const session = await loginAs(ctx.app, company.admin);
    const claims = decode(session.access) as Record<string, unknown>;
    expect(claims.exp).toEqual(expect.any(Number));
    const { exp: _exp, iat: _iat, ...lasting } = claims;
    const forever = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' })(lasting);
    const sameButExpiring = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256', expiresIn: 60_000 })(lasting);

    expect((await injectAs(ctx.app, sameButExpiring, { method: 'GET', url: '/api/profile/' })).statusCode).toBe(200);
    const refused = await injectAs(ctx.app, forever, { method: 'GET', url: '/api/profile/' });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().detail).toBe('Token is invalid or expired.');

    const refreshClaims = decode(session.refresh) as Record<string, unknown>;
    const { exp: _rexp, iat: _riat, ...lastingRefresh } = refreshClaims;
    const foreverRefresh = createSigner({ key: TEST_JWT_SECRET, algorithm: 'HS256' })(lastingRefresh);
    expect((await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: foreverRefresh } })).statusCode).toBe(401);
  });
});
