import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/build-app';
import { callAs, createTeam, type Team } from '../../test/work-factories';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-headers-'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>SiteBoard</title><script type="module" src="/assets/index-abc.js"></script>');

/** What every answer carries, whatever it is. */
function expectSecurityHeaders(headers: Record<string, unknown>, what: string) {
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options'], what).toBe('SAMEORIGIN');
  expect(String(headers['content-security-policy']), what).toContain("frame-ancestors 'none'");
  expect(headers['strict-transport-security'], `${what}: no HSTS over plain HTTP`).toBeUndefined();
}

afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

describeEachDatabase(
  'security headers',
  (ctx) => {
    let team: Team;
    beforeAll(async () => {
      team = await createTeam(ctx.app);
    });

    it("the web app's HTML: a policy of the app's own scripts, styles, images and connections, no inline script", async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/manager/projects' });

      expect(response.statusCode).toBe(200);
      expectSecurityHeaders(response.headers, 'HTML');
      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("script-src 'self'");
      expect(policy).toContain("style-src 'self'");
      expect(policy).toContain("img-src 'self' data: blob:");
      expect(policy).toContain("connect-src 'self'");
      expect(policy).toContain("object-src 'none'");
      expect(policy).not.toContain('unsafe-inline');
    });

    it('JSON answers and refusals', async () => {
      for (const [what, response] of [
        ['JSON', await callAs(ctx.app, team.member, { method: 'GET', url: '/api/profile/' })],
        ['a 401', await ctx.app.inject({ method: 'GET', url: '/api/profile/' })],
        ['a 404', await ctx.app.inject({ method: 'GET', url: '/api/nothing-here/' })],
      ] as const) {
        expectSecurityHeaders(response.headers, what);
      }
    });

    it('the appraisal PDF download', async () => {
      const response = await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/generate-appraisal-pdf/?user_id=${team.member.id}` });

      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expectSecurityHeaders(response.headers, 'PDF');
    });

    it("/api/docs: swagger-ui's own policy (its inline script by hash), still never framed", async () => {
      const page = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
      const script = await ctx.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });

      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('swagger');
      expect(script.statusCode).toBe(200);
      expectSecurityHeaders(page.headers, 'docs');
      const policy = String(page.headers['content-security-policy']);
      expect(policy).toMatch(/script-src 'self'( 'sha256-[^']+')*/);
      expect(policy).not.toContain('https:');
      expect(policy).not.toContain('upgrade-insecure-requests');
    });

    it('HSTS only on an answer to HTTPS (here as the trusted proxy reports it)', async () => {
      const overHttps = await ctx.app.inject({ method: 'GET', url: '/api/health/live/', headers: { 'x-forwarded-proto': 'https' } });
      const overHttp = await ctx.app.inject({ method: 'GET', url: '/api/health/live/', headers: { 'x-forwarded-proto': 'http' } });

      expect(overHttps.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(overHttp.headers['strict-transport-security']).toBeUndefined();
    });
  },
  { webDistDir: webDist, trustProxy: true },
);
