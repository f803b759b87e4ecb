import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app';
import { buildTestApp, createTestDatabase, TEST_JWT_SECRET, type TestDatabase } from '../../test/build-app';

describe('serving the web app', () => {
  let webDist: string;
  let database: TestDatabase;
  let app: App;
  const script = `console.log(${JSON.stringify('SiteBoard '.repeat(400))});`;

  beforeAll(async () => {
    webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'siteboard-web-'));
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>SiteBoard</title><script src="/assets/index-abc123.js"></script>');
    fs.writeFileSync(path.join(webDist, 'assets', 'index-abc123.js'), script);
    // The build's copies compressed at the strongest settings (apps/web/precompress.ts).
    fs.writeFileSync(path.join(webDist, 'assets', 'app-def456.js'), script);
    fs.writeFileSync(path.join(webDist, 'assets', 'app-def456.js.br'), zlib.brotliCompressSync(script, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
    fs.writeFileSync(path.join(webDist, 'assets', 'app-def456.js.gz'), zlib.gzipSync(script, { level: 9 }));
    fs.writeFileSync(path.join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    fs.writeFileSync(path.join(webDist, 'manifest.webmanifest'), '{"name":"SiteBoard"}');
    database = await createTestDatabase('pglite');
    app = await buildTestApp({ database, jwtSecret: TEST_JWT_SECRET, webDistDir: webDist });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('lets browsers keep hashed assets for a year and revalidate index.html every time', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const index = await app.inject({ method: 'GET', url: '/' });
    expect(index.headers['cache-control']).toBe('no-cache');
    const deepLink = await app.inject({ method: 'GET', url: '/manager/projects' });
    expect(deepLink.statusCode).toBe(200);
    expect(deepLink.headers['cache-control']).toBe('no-cache');
    expect(deepLink.body).toContain('<title>SiteBoard</title>');
  });

  it('serves nothing from outside the build, however the path climbs out of it', async () => {
    const outside = `${path.basename(webDist)}-secret.txt`;
    fs.writeFileSync(path.join(webDist, '..', outside), 'not for the web');
    try {
      for (const url of [`/../${outside}`, `/..%2f${outside}`, `/%2e%2e/${outside}`, `/assets/..%2f..%2f${outside}`, `/assets/%2e%2e%2f%2e%2e%2f${outside}`]) {
        const answer = await app.inject({ method: 'GET', url });
        expect(answer.body, url).not.toContain('not for the web');
        expect([200, 403, 404], url).toContain(answer.statusCode);
      }
    } finally {
      fs.rmSync(path.join(webDist, '..', outside), { force: true });
    }
  });

  it('answers a page of the app with the app, and a missing file or an unknown API path with a 404', async () => {
    for (const url of ['/manager/projects', '/admin/users?search=a.b', '/company-selection']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<title>SiteBoard</title>');
    }
    for (const url of ['/favicon.ico', '/robots.txt', '/assets/gone-000000.js', '/assets/gone', '/apple-touch-icon.png']) {
      const missing = await app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body, url).not.toContain('<title>SiteBoard</title>');
    }
    const api = await app.inject({ method: 'GET', url: '/api/no-such-thing/' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not found.' });
    const french = await app.inject({ method: 'GET', url: '/api/no-such-thing/', headers: { 'accept-language': 'fr;q=0.1, *' } });
    expect(french.json()).toEqual({ detail: 'Introuvable.' });
    expect(french.headers['content-language']).toBe('fr');
  });

  it('answers a method a known path does not take with 405 and the methods it does take, in the reader’s language', async () => {
    const cases: [method: 'PUT' | 'DELETE' | 'POST' | 'PATCH', url: string, allow: string][] = [
      ['PUT', '/api/projects/', 'GET, HEAD, POST'],
      ['PUT', '/api/projects/12/', 'DELETE, GET, HEAD, PATCH'],
      ['POST', '/api/calendar/abc.ics', 'GET, HEAD'],
      ['PATCH', '/api/health/', 'GET, HEAD'],
      ['POST', '/manifest.webmanifest', ''],
    ];
    for (const [method, url, allow] of cases) {
      const answer = await app.inject({ method, url, headers: { 'accept-language': 'de' } });
      if (!allow) {
        expect(answer.statusCode, `${method} ${url}`).toBe(404);
        continue;
      }
      expect(answer.statusCode, `${method} ${url}`).toBe(405);
      expect(answer.headers.allow, `${method} ${url}`).toBe(allow);
      expect(answer.json().detail).toBe(`Diese Adresse nimmt kein ${method} an: verwenden Sie ${allow}.`);
    }
  });

  it('has browsers revalidate the service worker and the manifest, so a new build is found at once', async () => {
    const worker = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(worker.headers['content-type']).toMatch(/javascript/);
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.headers['cache-control']).toBe('no-cache');
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
  });

  it('compresses assets and large API answers for browsers that accept it', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(asset.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(asset.rawPayload).toString()).toBe(script);
    expect(asset.rawPayload.length).toBeLessThan(script.length / 5);

    const docs = await app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'accept-encoding': 'gzip' } });
    expect(docs.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(docs.rawPayload).toString()).paths['/api/projects/']).toBeDefined();
    // Compressed in one piece, so the browser is told its size rather than sent chunks.
    expect(Number(docs.headers['content-length'])).toBe(docs.rawPayload.length);
  });

  it('sends small answers, and answers to clients that do not ask, uncompressed', async () => {
    const small = await app.inject({ method: 'GET', url: '/api/health/live/', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok' });
    const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it("sends the build's compressed copies of an asset as they are, by what the browser accepts", async () => {
    const file = (name: string) => fs.readFileSync(path.join(webDist, 'assets', name));
    const br = await app.inject({ method: 'GET', url: '/assets/app-def456.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(file('app-def456.js.br'))).toBe(true);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);

    const gz = await app.inject({ method: 'GET', url: '/assets/app-def456.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.equals(file('app-def456.js.gz'))).toBe(true);

    const plain = await app.inject({ method: 'GET', url: '/assets/app-def456.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });
});
