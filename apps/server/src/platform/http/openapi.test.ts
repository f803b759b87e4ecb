import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/build-app';
import { freshClientAddress } from '../../test/factories';
import { callAs, createTeam } from '../../test/work-factories';

/** Spec §7 calls, DESIGN.md's additions and later calls: every one must be documented. */
const DOCUMENTED_CALLS = [
  'get /api/companies/', 'get /api/companies/{id}/', 'post /api/verify-company-password/', 'post /api/token/', 'get /api/profile/', 'post /api/token/refresh/',
  'post /api/token/revoke/', 'post /api/signup/', 'get /api/health/', 'get /api/ready/', 'post /api/profile/password/',
  'get /api/users/', 'post /api/users/', 'patch /api/users/{id}/', 'delete /api/users/{id}/', 'post /api/users/{id}/password/',
  'get /api/projects/', 'post /api/projects/', 'patch /api/projects/{id}/', 'delete /api/projects/{id}/',
  'get /api/team-members/', 'post /api/team-members/',
  'get /api/appraisal-report/', 'get /api/generate-appraisal-pdf/', 'get /projects/api/manager-appraisal-report/',
  'get /api/major-tasks/{id}/', 'post /api/major-tasks/',
  'get /api/subtasks/', 'post /api/subtasks/', 'patch /api/subtasks/{id}/',
  'get /api/pending-approvals/', 'get /api/tasks-due-today/',
  'get /api/notifications/', 'patch /api/notifications/mark-read/', 'get /ws/notifications/{userId}/{email}/',
  'post /api/calendar-feed/', 'get /api/calendar-feed/', 'patch /api/calendar-feed/', 'delete /api/calendar-feed/', 'get /api/calendar/{token}.ics',
  // The daily site log's contract (issue 45)
  'get /api/projects/{id}/daily-logs/', 'get /api/projects/{id}/daily-logs/{date}/', 'put /api/projects/{id}/daily-logs/{date}/',
  'post /api/projects/{id}/daily-logs/{date}/entries/', 'post /api/projects/{id}/daily-logs/{date}/attachments/', 'post /api/projects/{id}/daily-logs/{date}/sign/',
  'post /api/projects/{id}/daily-logs/{date}/amendments/', 'get /api/projects/{id}/daily-logs/{date}/pdf/', 'get /api/projects/{id}/daily-logs/pdf/',
];

interface Operation {
  requestBody?: { content: Record<string, { schema: unknown }> };
  parameters?: { in: string; name: string; schema: Schema }[];
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }>;
}
interface Schema {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  allOf?: Schema[];
}
type Document = { paths: Record<string, Record<string, Operation>> };

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = addFormats(new Ajv({ strict: false }));

/** Every named property of what the operations take (bodies and parameters), with where it is. */
function inputs(document: Document): { where: string; name: string; schema: Schema }[] {
  const found: { where: string; name: string; schema: Schema }[] = [];
  const walk = (where: string, name: string, schema: Schema | undefined) => {
    if (!schema) return;
    found.push({ where, name, schema });
    for (const [property, inner] of Object.entries(schema.properties ?? {})) walk(`${where}.${property}`, property, inner);
    walk(`${where}[]`, name, schema.items);
    for (const inner of [...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) walk(where, name, inner);
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      for (const parameter of operation.parameters ?? []) walk(`${method} ${path} ${parameter.in} ${parameter.name}`, parameter.name, parameter.schema);
      walk(`${method} ${path} body`, 'body', operation.requestBody?.content['application/json']?.schema as Schema | undefined);
    }
  }
  return found;
}

describeEachDatabase('OpenAPI document', (ctx) => {
  it('lists every call of the specification', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method} ${path}`));
    for (const call of DOCUMENTED_CALLS) expect(documented).toContain(call);
  });

  it('gives every write a request schema and every operation a success response schema', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, Record<string, Operation>> };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const label = `${method.toUpperCase()} ${path}`;
        const content = operation.requestBody?.content ?? {};
        if ((method === 'post' || method === 'patch') && !path.includes('mark-read')) expect((content['application/json'] ?? content['multipart/form-data'] ?? content['application/x-www-form-urlencoded'])?.schema, label).toBeDefined();
        // A WebSocket succeeds with 101 Switching Protocols, its schema that of the messages.
        const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2') || status === '101');
        expect(success, `${label} has no 2xx response`).toBeDefined();
        if (success![0] !== '204') expect(Object.values(success![1].content ?? {})[0]?.schema, `${label} success schema`).toBeDefined();
      }
    }
  });

  it('says what answers carry: no body on a 204, X-Total-Count on a paged list, Idempotency-Key and X-Done-At on a signed-in write', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as Document;
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const label = `${method.toUpperCase()} ${path}`;
        expect(operation.responses['204']?.content, label).toBeUndefined();
        if (method === 'get' && operation.parameters?.some((parameter) => parameter.name === 'limit')) expect(operation.responses['200']?.headers?.['X-Total-Count'], label).toBeDefined();
        const write = ['post', 'patch', 'put', 'delete'].includes(method);
        // The calendar feed's writes take no key: a kept answer would hold its secret URL.
        const repeatable = path === '/api/calendar-feed/';
        const parameters = operation.parameters?.map((parameter) => parameter.name) ?? [];
        if (write && operation.security?.length && repeatable) expect(parameters, label).not.toContain('Idempotency-Key');
        else if (write && operation.security?.length) {
          expect(parameters, label).toContain('Idempotency-Key');
          expect(parameters, label).toContain('X-Done-At');
          expect(Object.keys(operation.responses), label).toEqual(expect.arrayContaining(['409', '422']));
        }
      }
    }
  });

  it('documents the device cookie on the calls that set it, and those calls set it as documented', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as Document;
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, operation]) => Object.values(operation.responses).some((response) => response.headers?.['Set-Cookie']))
        .map(([method]) => `${method} ${path}`),
    );
    expect(documented.sort()).toEqual(['post /api/token/', 'post /api/verify-company-password/']);
    const { company } = await createTeam(ctx.app);
    const cookies = [
      await ctx.app.inject({ method: 'POST', url: '/api/verify-company-password/', payload: { company_name: company.name, password: company.password }, remoteAddress: freshClientAddress() }),
      await ctx.app.inject({ method: 'POST', url: '/api/token/', payload: { role: 'admin', company_id: company.id, email: company.admin.email, password: company.admin.password }, remoteAddress: freshClientAddress() }),
    ].map((answer) => {
      expect(answer.statusCode, answer.body).toBe(200);
      return String(answer.headers['set-cookie']);
    });
    for (const cookie of cookies) expect(cookie).toMatch(/^siteboard_device_[A-Za-z0-9_-]{16}=[^;]+; Max-Age=31536000; Path=\/api\/; HttpOnly; SameSite=Strict$/);
  });

  it('states the rules the server checks: real dates in its years, e-mail addresses, time zone names, text without control characters', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as Document;
    const fields = inputs(document);
    const dates = fields.filter((field) => field.schema.format === 'date');
    expect(dates.map((field) => field.where)).toEqual(expect.arrayContaining(['post /api/projects/ body.start_date', 'post /api/subtasks/ body.due_date', 'get /api/appraisal-report/ query start_date']));
    for (const { where, schema } of dates) {
      const valid = ajv.compile(schema);
      expect(['0000-00-00', '2026-02-30', '2026-13-01', '1899-12-31', '2201-01-01', '2026-6-30'].filter((value) => valid(value)), where).toEqual([]);
      expect(['2028-02-29', '1900-01-01', '2200-12-31', '2026-06-30'].every((value) => valid(value)), where).toBe(true);
    }
    // A date with no more than its shape would pass 0000-00-00, which the server refuses.
    expect(fields.filter((field) => field.schema.pattern === '^\\d{4}-\\d{2}-\\d{2}$' && field.schema.format !== 'date').map((field) => field.where)).toEqual([]);
    const emails = fields.filter((field) => field.name === 'email' && field.where.includes(' body.'));
    expect(emails.length).toBeGreaterThan(2);
    for (const { where, schema } of emails) expect(schema.format, where).toBe('email');
    const zones = fields.filter((field) => field.name === 'timezone' && field.where.includes(' body.'));
    expect(zones.length).toBeGreaterThanOrEqual(3);
    for (const { where, schema } of zones) {
      expect(schema.enum, where).toEqual(expect.arrayContaining(['UTC', 'Europe/Berlin', 'Pacific/Kiritimati']));
      expect(schema.enum, where).not.toContain('US/Pacific-New');
    }
    const texts = fields.filter((field) => ['name', 'description', 'company_name'].includes(field.name) && field.where.includes(' body.'));
    expect(texts.length).toBeGreaterThan(5);
    for (const { where, schema } of texts) {
      const valid = ajv.compile(schema);
      expect(['Nul\u0000', 'Bell\u0007', 'Broken \ud800 half'].filter((value) => valid(value)), where).toEqual([]);
      expect(valid('Zürich Süd — 東京 🏗'), where).toBe(true);
    }
  });

  it('and the server refuses what the document refuses', async () => {
    const team = await createTeam(ctx.app);
    const project = (start_date: string, name = 'Ring road') =>
      callAs(ctx.app, team.admin, { method: 'POST', url: '/api/projects/', payload: { name, start_date, end_date: '2030-12-31', manager_id: team.manager.id, status: 'ongoing' } });
    for (const date of ['0000-00-00', '2026-02-30', '1899-12-31']) expect((await project(date)).statusCode, date).toBe(400);
    expect((await project('2026-01-01', 'Bell\u0007')).statusCode).toBe(400);
    const zone = await callAs(ctx.app, team.admin, { method: 'PATCH', url: '/api/profile/', payload: { timezone: 'US/Pacific-New' } });
    expect(zone.statusCode).toBe(400);
  });

  it('serves the docs UI', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(response.statusCode);
    const page = response.statusCode === 302 ? await ctx.app.inject({ method: 'GET', url: response.headers.location as string }) : response;
    expect(page.body).toContain('swagger');
  });
});
