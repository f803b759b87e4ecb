import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/build-app';
import { callAs, createTeam, insertProject, type Team } from '../../test/work-factories';

describeEachDatabase('conditional GETs of signed-in JSON reads', (ctx) => {
  let team: Team;
  beforeAll(async () => {
    team = await createTeam(ctx.app);
    // Enough projects that the list is compressed when the client accepts it (answers under 1 KB are not).
    for (let i = 0; i < 12; i++) await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
  });

  const get = (url: string, headers: Record<string, string> = {}) => callAs(ctx.app, team.manager, { method: 'GET', url, headers });

  it('answers a list fetched again with its ETag and nothing changed in between with a 304 and no body', async () => {
    const first = await get('/api/projects/?status=ongoing');
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(String(first.headers.vary).toLowerCase().split(/,\s*/)).toEqual(expect.arrayContaining(['authorization', 'accept', 'accept-language', 'accept-encoding']));

    const again = await get('/api/projects/?status=ongoing', { 'if-none-match': first.headers.etag as string });

    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['content-encoding']).toBeUndefined();
  });

  it('answers 200 with a new ETag once the list changed', async () => {
    const before = await get('/api/projects/?status=ongoing');
    await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id, name: 'A new tower' });

    const after = await get('/api/projects/?status=ongoing', { 'if-none-match': before.headers.etag as string });

    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().map((project: { name: string }) => project.name)).toContain('A new tower');
  });

  it('answers 200 with the new total when rows were added past an unchanged page', async () => {
    const url = '/api/projects/?status=ongoing&order=oldest&limit=1&offset=0';
    const before = await get(url);
    await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id, name: 'Past the first page' });

    const after = await get(url, { 'if-none-match': before.headers.etag as string });

    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual(before.json());
    expect(Number(after.headers['x-total-count'])).toBe(Number(before.headers['x-total-count']) + 1);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('never answers a CSV, a compressed or a German request of the same URL with another representation', async () => {
    const json = await get('/api/projects/?status=ongoing');
    const tag = json.headers.etag as string;

    const csv = await get('/api/projects/?status=ongoing', { accept: 'text/csv', 'if-none-match': tag });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).not.toContain('"manager"');

    const gzipped = await get('/api/projects/?status=ongoing', { 'accept-encoding': 'gzip', 'if-none-match': tag });
    expect(gzipped.statusCode).toBe(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.etag).not.toBe(tag);

    // A German reader's answer: its refusal texts differ, so its tag does too.
    await callAs(ctx.app, team.manager, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } });
    const german = await get('/api/projects/999999999/', {});
    const english = await callAs(ctx.app, team.member, { method: 'GET', url: '/api/projects/999999999/' });
    expect(german.statusCode).toBe(404);
    expect(english.statusCode).toBe(404);
    expect(german.json().detail).not.toBe(english.json().detail);
    await callAs(ctx.app, team.manager, { method: 'PATCH', url: '/api/profile/', payload: { language: 'en' } });
  });

  it('gives a refusal no ETag, and a write none', async () => {
    const refused = await get('/api/projects/999999999/');
    const written = await callAs(ctx.app, team.manager, { method: 'PATCH', url: '/api/profile/', payload: { language: 'en' } });

    expect(refused.statusCode).toBe(404);
    expect(refused.headers.etag).toBeUndefined();
    expect(written.headers.etag).toBeUndefined();
  });
});
