/**
 * Random malformed bodies, ids and query strings against every write endpoint: the answer is
 * never a 5xx, and a refused request leaves the database exactly as it was.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { Db } from './db/client';
import { describeEachDatabase } from './test/build-app';
import { callAs, createTeam, insertWork, type Caller, type Team } from './test/work-factories';

const TABLES = ['companies', 'users', 'team_members', 'projects', 'major_tasks', 'subtasks', 'notifications', 'notification_recipients'];

/** A fingerprint of every row of every tenant table. */
async function snapshot(db: Db): Promise<string> {
  const parts = TABLES.map((table) => `(select coalesce(md5(string_agg(t::text, '|' order by t::text)), '') from ${table} t)`);
  const result = (await db.execute(sql.raw(`select ${parts.join(" || ':' || ")} as fingerprint`))) as unknown as { rows: { fingerprint: string }[] };
  return result.rows[0]!.fingerprint;
}

const FIELD_NAMES = [
  'email', 'password', 'role', 'designation', 'mobile_number', 'company_id', 'manager_id', 'manager', 'user_id', 'performance_score',
  'name', 'description', 'start_date', 'end_date', 'status', 'project_id', 'due_date', 'subtasks', 'major_task', 'major_task_id',
  'assigned_to_id', 'priority', 'timezone', 'ids',
];
const hostileValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('', ' ', '2026-02-30', '9999-99-99', '1e400', 'NaN', '-1', '0', '2147483648', '99999999999999999999', '<script>', "'; drop table users; --", 'ongoing', 'admin', 'completed'),
  fc.array(fc.oneof(fc.integer(), fc.string(), fc.object()), { maxLength: 3 }),
  fc.object({ maxDepth: 2 }),
);
/** A hostile value as a query parameter. String() throws on the rare object whose `toString` fast-check made a non-function (or that has no prototype). */
const asQueryValue = (value: unknown) => {
  try {
    return String(value);
  } catch {
    return JSON.stringify(value);
  }
};
/** Bodies that look almost right (known field names, wrong values) as well as anything at all. */
const hostileBody = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileValue, { maxKeys: 6 }),
  fc.anything({ maxDepth: 2 }),
);
const hostileId = fc.oneof(fc.integer(), fc.constantFrom('0', '-5', 'abc', '1.5', '2147483648', '1e3', '%00', 'null'), fc.string({ maxLength: 8 }).map(encodeURIComponent));
const rawBody = fc.oneof(fc.string(), fc.constantFrom('{', '{"email":', 'null', '[]', '"text"', '{"__proto__":{"admin":true}}'));

type Endpoint = { method: 'POST' | 'PATCH' | 'DELETE'; path: (id: string) => string; as: 'admin' | 'manager' | 'member'; id?: 'random' | 'real' };

const ENDPOINTS: Endpoint[] = [
  { method: 'POST', path: () => '/api/users/', as: 'admin' },
  { method: 'PATCH', path: (id) => `/api/users/${id}/`, as: 'admin', id: 'random' },
  { method: 'PATCH', path: (id) => `/api/users/${id}/`, as: 'admin', id: 'real' },
  { method: 'DELETE', path: (id) => `/api/users/${id}/`, as: 'admin', id: 'random' },
  { method: 'POST', path: () => '/api/team-members/', as: 'admin' },
  { method: 'PATCH', path: () => '/api/company/', as: 'admin' },
  { method: 'POST', path: () => '/api/projects/', as: 'admin' },
  { method: 'PATCH', path: (id) => `/api/projects/${id}/`, as: 'admin', id: 'real' },
  { method: 'DELETE', path: (id) => `/api/projects/${id}/`, as: 'admin', id: 'random' },
  { method: 'POST', path: () => '/api/major-tasks/', as: 'manager' },
  { method: 'PATCH', path: (id) => `/api/major-tasks/${id}/`, as: 'manager', id: 'real' },
  { method: 'DELETE', path: (id) => `/api/major-tasks/${id}/`, as: 'manager', id: 'random' },
  { method: 'POST', path: () => '/api/subtasks/', as: 'member' },
  { method: 'PATCH', path: (id) => `/api/subtasks/${id}/`, as: 'manager', id: 'real' },
  { method: 'PATCH', path: (id) => `/api/subtasks/${id}/`, as: 'member', id: 'random' },
  { method: 'POST', path: () => '/api/signup/', as: 'admin' },
  { method: 'POST', path: () => '/api/token/', as: 'admin' },
  { method: 'POST', path: () => '/api/verify-company-password/', as: 'admin' },
  { method: 'POST', path: () => '/api/token/refresh/', as: 'admin' },
];

const READ_PATHS = ['/api/subtasks/', '/api/projects/', '/api/users/', '/api/appraisal-report/', '/projects/api/manager-appraisal-report/', '/api/generate-appraisal-pdf/'];

describeEachDatabase('malformed input', (ctx) => {
  let team: Team;
  let realIds: { user: number; project: number; majorTask: number; subtask: number };
  beforeAll(async () => {
    team = await createTeam(ctx.app);
    const work = await insertWork(ctx.app.db, team);
    realIds = { user: team.otherMember.id, project: work.projectId, majorTask: work.majorTaskId, subtask: work.subtaskId };
  });
  const callerFor = (as: Endpoint['as']): Caller => ({ admin: team.admin, manager: team.manager, member: team.member })[as];
  const realIdFor = (path: string) =>
    String(path.includes('users') ? realIds.user : path.includes('projects') ? realIds.project : path.includes('major-tasks') ? realIds.majorTask : realIds.subtask);

  for (const endpoint of ENDPOINTS) {
    const label = `${endpoint.method} ${endpoint.path(':id')} as ${endpoint.as}${endpoint.id ? ` (${endpoint.id} id)` : ''}`;
    it(`${label}: never a 5xx, and a refusal changes nothing`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(hostileBody.map((body) => JSON.stringify(body) ?? 'null'), rawBody), hostileId, async (payload, id) => {
          const url = endpoint.path(endpoint.id === 'real' ? realIdFor(endpoint.path('x')) : String(id));
          const before = await snapshot(ctx.app.db);
          const response = await callAs(ctx.app, callerFor(endpoint.as), {
            method: endpoint.method,
            url,
            payload,
            headers: { 'content-type': 'application/json' },
            remoteAddress: '10.9.9.9',
          });
          expect(response.statusCode, `${url} ${payload} → ${response.body}`).toBeLessThan(500);
          if (response.statusCode >= 400) {
            expect(await snapshot(ctx.app.db), `${url} ${payload} changed the database`).toBe(before);
            expect(response.json()).toHaveProperty('detail');
          }
        }),
        { numRuns: 25 },
      );
    });
  }

  it('random query strings on the list and report endpoints: never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...READ_PATHS),
        fc.dictionary(fc.constantFrom('project_status', 'assigned_to', 'status', 'expand', 'user_id', 'start_date', 'end_date', 'role', 'search', 'limit', 'offset', 'x'), hostileValue.map(asQueryValue), { maxKeys: 4 }),
        fc.constantFrom<Endpoint['as']>('admin', 'manager', 'member'),
        async (path, query, as) => {
          const response = await callAs(ctx.app, callerFor(as), { method: 'GET', url: path, query });
          expect(response.statusCode, `${path}?${new URLSearchParams(query)} → ${response.body.slice(0, 300)}`).toBeLessThan(500);
        },
      ),
      { numRuns: 60 },
    );
  });
});
