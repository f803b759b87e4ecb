/**
 * Random malformed bodies, ids and query strings against every write endpoint: the answer is
 * never a 5xx, and a refused request leaves the database exactly as it was.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { type Db, JSON_TOO_DEEP, MAX_JSON_DEPTH } from './platform';
import { describeEachDatabase, type TestContext } from './test/build-app';
import { freshClientAddress } from './test/factories';
import { insertSheets } from './features/sheets/sheets.queries';
import { callAs, createTeam, insertWork, type Caller } from './test/work-factories';

const TABLES = ['companies', 'users', 'team_members', 'projects', 'major_tasks', 'subtasks', 'notifications', 'notification_recipients', 'daily_logs', 'daily_log_entries', 'daily_log_amendments'];

/** A fingerprint of every row of every tenant table. */
async function snapshot(db: Db): Promise<string> {
  const parts = TABLES.map((table) => `(select coalesce(md5(string_agg(t::text, '|' order by t::text)), '') from ${table} t)`);
  const result = (await db.execute(sql.raw(`select ${parts.join(" || ':' || ")} as fingerprint`))) as unknown as { rows: { fingerprint: string }[] };
  return result.rows[0]!.fingerprint;
}

/** Text no person types and PostgreSQL cannot always store: NUL, the other control characters, unpaired surrogates. */
const unstorableText = fc.oneof(
  fc.constantFrom('\u0000', 'Slab\u0000pour', '\u0001', 'bell\u0007', 'escape\u001b[31m', 'delete\u007f', 'next line\u0085', '\ud800', 'broken\udfff', 'half an emoji \ud83d'),
  fc
    .tuple(fc.string({ maxLength: 4 }), fc.integer({ min: 0, max: 0x9f }).filter((code) => code < 0x09 || code === 0x0b || code === 0x0c || (code > 0x0d && code < 0x20) || code >= 0x7f), fc.string({ maxLength: 4 }))
    .map(([before, code, after]) => `${before}${String.fromCharCode(code)}${after}`),
  fc.tuple(fc.string({ maxLength: 4 }), fc.integer({ min: 0xd800, max: 0xdfff })).map(([before, code]) => `${before}${String.fromCharCode(code)}`),
);
/** Dates of the calendar's shape outside the years a job site plans in, or days the calendar does not have. */
const extremeDate = fc.oneof(
  fc.constantFrom('0000-01-01', '0001-01-01', '1899-12-31', '2201-01-01', '9999-12-31', '1900-02-29', '2100-02-29'),
  fc.integer({ min: 0, max: 9999 }).filter((year) => year < 1900 || year > 2200).map((year) => `${String(year).padStart(4, '0')}-06-15`),
);
/** A small whole number spelled any way but in decimal digits. */
const numberSpelling = fc.constantFrom('0x1', '0X1A', '1e0', '1E2', '+1', ' 1', '1 ', '1.0', '0b1', '0o7', 'Infinity', '\u0663', '1_000');
const numberSpellingInJson = fc.oneof(numberSpelling, fc.constantFrom([1], ['1'], [[1]], { 0: 1 }));
/** A JSON value nested deeper than any request needs, as arrays, objects or both. */
const deepJson = fc.tuple(fc.integer({ min: MAX_JSON_DEPTH + 1, max: 20_000 }), fc.constantFrom('[', '{"a":', 'mixed')).map(([depth, kind]) => {
  const opener = (level: number) => (kind === 'mixed' ? (level % 2 ? '[' : '{"a":') : kind);
  let json = '1';
  for (let level = 0; level < depth; level++) json = opener(level) === '[' ? `[${json}]` : `{"a":${json}}`;
  return json;
});

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
  fc.string({ unit: 'binary', maxLength: 12 }),
  unstorableText,
  extremeDate,
  numberSpellingInJson,
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

type Endpoint = { method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: (id: string) => string; as: 'admin' | 'manager' | 'member'; id?: 'random' | 'real' };

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
  { method: 'PUT', path: (id) => `/api/projects/${id}/daily-logs/2025-05-05/`, as: 'manager', id: 'real' },
  { method: 'POST', path: (id) => `/api/projects/${id}/daily-logs/2025-05-05/entries/`, as: 'member', id: 'real' },
];

const READ_PATHS = ['/api/subtasks/', '/api/projects/', '/api/users/', '/api/appraisal-report/', '/projects/api/manager-appraisal-report/', '/api/generate-appraisal-pdf/'];

type Fields = { dates?: string[]; ids?: string[] };
interface FieldCase {
  endpoint: Endpoint;
  /** A body the endpoint takes, to spoil one field of. */
  body: () => Record<string, unknown>;
  fields: Fields;
}

/** A JSON schema as the OpenAPI document carries it, as far as finding its text fields needs. */
interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
}
interface DocumentOperation {
  parameters?: { name: string; in: string; schema?: SchemaNode }[];
  requestBody?: { content?: Record<string, { schema?: SchemaNode }> };
}
interface TextField {
  method: string;
  template: string;
  in: 'body' | 'query';
  /** Dotted, as a refusal's `errors` names it: `subtasks.0.name`. */
  field: string;
}

/** Every place a string (not one of a fixed list of words) can be sent, found in the schema: an object's properties, an array's items, each alternative. */
function stringLeaves(node: SchemaNode | undefined, path: string, found: Set<string>) {
  if (!node) return;
  for (const alternative of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) stringLeaves(alternative, path, found);
  for (const [key, child] of Object.entries(node.properties ?? {})) stringLeaves(child, path ? `${path}.${key}` : key, found);
  if (node.items) stringLeaves(node.items, `${path}.0`, found);
  const types = [node.type].flat();
  if (types.includes('string') && !node.enum && node.format !== 'binary' && path) found.add(path);
}

/**
 * Every text field of every operation the server documents: the fields of each JSON body and
 * each query parameter, read from the document its schemas make, so a new field is covered the
 * day it is added. (Headers have patterns of their own; path segments are ids, dates and tokens.)
 */
function textFieldsOf(document: { paths: Record<string, Record<string, DocumentOperation>> }): TextField[] {
  return Object.entries(document.paths)
    .filter(([template]) => !template.startsWith('/ws/'))
    .flatMap(([template, operations]) =>
      Object.entries(operations).flatMap(([method, operation]) => {
        const body = new Set<string>();
        stringLeaves(operation.requestBody?.content?.['application/json']?.schema, '', body);
        const query = new Set<string>();
        for (const parameter of operation.parameters ?? []) if (parameter.in === 'query') stringLeaves(parameter.schema, parameter.name, query);
        return [
          ...[...body].map((field) => ({ method: method.toUpperCase(), template, in: 'body' as const, field })),
          ...[...query].map((field) => ({ method: method.toUpperCase(), template, in: 'query' as const, field })),
        ];
      }),
    );
}

/** `body` with `value` at a dotted path, making the objects and arrays on the way. */
function withValueAt(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let target = copy as Record<string, unknown>;
  keys.slice(0, -1).forEach((key, index) => {
    target[key] ??= /^\d+$/.test(keys[index + 1]!) ? [] : {};
    target = target[key] as Record<string, unknown>;
  });
  target[keys.at(-1)!] = value;
  return copy;
}

type RealIds = { user: number; project: number; majorTask: number; subtask: number; sheet: number };

async function createWorld(ctx: TestContext) {
  const team = await createTeam(ctx.app);
  const work = await insertWork(ctx.app.db, team);
  // A sheet's record is enough: who may change it is asked before its body is read, renaming needs no image.
  const [sheet] = await insertSheets(ctx.app.db, [{ companyId: team.company.id, projectId: work.projectId, name: 'Level 1', pageNumber: 1, source: 'image', sourcePath: '', createdById: team.manager.id }]);
  const ids: RealIds = { user: team.otherMember.id, project: work.projectId, majorTask: work.majorTaskId, subtask: work.subtaskId, sheet: sheet! };
  return {
    team,
    ids,
    callerFor: (as: Endpoint['as']): Caller => ({ admin: team.admin, manager: team.manager, member: team.member })[as],
    realIdFor: (path: string) =>
      String(path.includes('users') ? ids.user : path.includes('projects') ? ids.project : path.includes('major-tasks') ? ids.majorTask : path.includes('sheets') ? ids.sheet : ids.subtask),
  };
}

describeEachDatabase('malformed input', (ctx) => {
  let world: Awaited<ReturnType<typeof createWorld>>;
  // The random bodies below may delete or change any row of their company: the field checks get a company of their own.
  let spoilable: Awaited<ReturnType<typeof createWorld>>;
  beforeAll(async () => {
    world = await createWorld(ctx);
    spoilable = await createWorld(ctx);
  });
  const callerFor = (as: Endpoint['as']) => world.callerFor(as);
  const realIdFor = (path: string) => world.realIdFor(path);

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

  const FIELD_CASES = (): FieldCase[] => {
    const { team, ids: realIds } = spoilable;
    const subtask = { name: 'Rebar', description: 'Level 2', assigned_to_id: team.member.id, due_date: '2099-05-01', priority: 'low' };
    return [
      {
        endpoint: { method: 'POST', path: () => '/api/signup/', as: 'admin' },
        body: () => ({ company_name: `Fresh ${Math.random()}`, company_password: 'long enough', email: `fresh${Math.random()}@example.test`, password: 'long enough' }),
        fields: {},
      },
      { endpoint: { method: 'POST', path: () => '/api/verify-company-password/', as: 'admin' }, body: () => ({ company_name: team.company.name, password: 'wrong' }), fields: {} },
      {
        endpoint: { method: 'POST', path: () => '/api/token/', as: 'admin' },
        body: () => ({ email: team.member.email, password: 'wrong', role: 'team_member', company_id: team.company.id }),
        fields: { ids: ['company_id'] },
      },
      {
        endpoint: { method: 'POST', path: () => '/api/users/', as: 'admin' },
        body: () => ({ email: `new${Math.random()}@example.test`, password: 'long enough', role: 'team_member', manager_id: team.manager.id, designation: 'Rigger', mobile_number: '+1 555 0100' }),
        fields: { ids: ['manager_id', 'company_id'] },
      },
      { endpoint: { method: 'PATCH', path: (id) => `/api/users/${id}/`, as: 'admin', id: 'real' }, body: () => ({ designation: 'Foreman' }), fields: { ids: ['manager_id'] } },
      { endpoint: { method: 'PATCH', path: () => '/api/company/', as: 'admin' }, body: () => ({ timezone: 'UTC' }), fields: {} },
      {
        endpoint: { method: 'POST', path: () => '/api/projects/', as: 'admin' },
        body: () => ({ name: 'Tower', description: 'Phase 1', start_date: '2026-01-01', end_date: '2026-12-31', manager_id: team.manager.id, status: 'ongoing' }),
        fields: { dates: ['start_date', 'end_date'], ids: ['manager_id', 'company_id'] },
      },
      {
        endpoint: { method: 'PATCH', path: (id) => `/api/projects/${id}/`, as: 'admin', id: 'real' },
        body: () => ({ description: 'Phase 2' }),
        fields: { dates: ['start_date', 'end_date'], ids: ['manager', 'manager_id'] },
      },
      {
        endpoint: { method: 'POST', path: () => '/api/major-tasks/', as: 'manager' },
        body: () => ({ project_id: realIds.project, name: 'Deck', description: 'Pour', subtasks: [subtask] }),
        fields: { dates: ['subtasks.0.due_date'], ids: ['project_id', 'subtasks.0.assigned_to_id'] },
      },
      { endpoint: { method: 'PATCH', path: (id) => `/api/major-tasks/${id}/`, as: 'manager', id: 'real' }, body: () => ({ name: 'Deck' }), fields: {} },
      {
        endpoint: { method: 'POST', path: () => '/api/subtasks/', as: 'member' },
        body: () => ({ major_task: realIds.majorTask, ...subtask }),
        fields: { dates: ['due_date'], ids: ['major_task', 'major_task_id', 'assigned_to_id'] },
      },
      {
        endpoint: { method: 'PATCH', path: (id) => `/api/subtasks/${id}/`, as: 'manager', id: 'real' },
        body: () => ({ priority: 'high' }),
        fields: { dates: ['due_date'], ids: ['assigned_to_id'] },
      },
      { endpoint: { method: 'POST', path: () => '/api/team-members/', as: 'admin' }, body: () => ({ user_id: realIds.user, manager_id: team.manager.id }), fields: { ids: ['user_id', 'manager_id', 'performance_score'] } },
      {
        endpoint: { method: 'PUT', path: (id) => `/api/projects/${id}/daily-logs/2025-05-06/`, as: 'manager', id: 'real' },
        body: () => ({ weather: { conditions: 'Dry', wind: 'NW', work_stopped: false }, crew: [{ trade: 'Carpenters', company: 'Nordbau', headcount: 2, hours: 8 }], notes: 'Slab 3' }),
        fields: {},
      },
      { endpoint: { method: 'POST', path: (id) => `/api/projects/${id}/daily-logs/2025-05-06/entries/`, as: 'member', id: 'real' }, body: () => ({ hours: 8, note: 'Set out grid' }), fields: {} },
    ];
  };

  const spoilers: [kind: keyof Fields, values: fc.Arbitrary<unknown>][] = [
    ['dates', extremeDate],
    ['ids', numberSpellingInJson],
  ];
  for (const [kind, values] of spoilers) {
    it(`${kind}: one spoiled field of an otherwise good body is refused with 400 naming that field, and changes nothing`, async () => {
      const cases = FIELD_CASES().filter((fieldCase) => fieldCase.fields[kind]);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...cases.flatMap((fieldCase) => fieldCase.fields[kind]!.map((field) => [fieldCase, field] as const))), values, async ([fieldCase, field], value) => {
          const { endpoint } = fieldCase;
          const url = endpoint.path(spoilable.realIdFor(endpoint.path('x')));
          const payload = withValueAt(fieldCase.body(), field, value);
          const before = await snapshot(ctx.app.db);
          const response = await callAs(ctx.app, spoilable.callerFor(endpoint.as), { method: endpoint.method, url, payload, remoteAddress: freshClientAddress() });
          const shown = `${endpoint.method} ${url} ${field}=${JSON.stringify(value)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          expect(response.statusCode, shown).toBe(400);
          expect(response.json().errors?.[field], shown).toBeDefined();
          expect(await snapshot(ctx.app.db), `${shown} changed the database`).toBe(before);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('every text field of every documented operation: control characters or a broken symbol are a 400 naming the field, and change nothing', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const fields = textFieldsOf(document);
    // The walk finds what the probe broke (a comment's text) and reaches into nested rows.
    expect(fields).toEqual(expect.arrayContaining([
      { method: 'POST', template: '/api/subtasks/{id}/comments/', in: 'body', field: 'text' },
      { method: 'PATCH', template: '/api/subtasks/{id}/', in: 'body', field: 'comment' },
      { method: 'POST', template: '/api/major-tasks/', in: 'body', field: 'subtasks.0.name' },
      { method: 'GET', template: '/api/users/', in: 'query', field: 'search' },
    ]));
    // What the checks that run before validation look for: an entry of one's own, a signed log to amend.
    const { team, ids } = spoilable;
    const logUrl = (date: string, rest = '') => `/api/projects/${ids.project}/daily-logs/${date}/${rest}`;
    const entry = await callAs(ctx.app, team.member, { method: 'POST', url: logUrl('2025-05-07', 'entries/'), payload: { hours: 1 } });
    expect((await callAs(ctx.app, team.manager, { method: 'POST', url: logUrl('2025-05-08', 'sign/') })).statusCode).toBe(200);
    const urlOf = (template: string) =>
      template
        .replace('{id}', spoilable.realIdFor(template))
        .replace('{entryId}', String(entry.json().id))
        .replace('{date}', template.endsWith('/amendments/') ? '2025-05-08' : template.includes('{entryId}') ? '2025-05-07' : '2025-05-06');
    // A good body to spoil one field of, where one is at hand: a refusal is then the spoiled field's doing.
    const goodBodies = new Map(FIELD_CASES().map((fieldCase) => [`${fieldCase.endpoint.method} ${fieldCase.endpoint.path(spoilable.realIdFor(fieldCase.endpoint.path('x')))}`, fieldCase.body]));
    goodBodies.set(`PATCH ${urlOf('/api/subtasks/{id}/')}`, () => ({ priority: 'high' }));
    await fc.assert(
      fc.asyncProperty(unstorableText, async (value) => {
        // A URL carries UTF-8: a broken symbol cannot travel in a query string (it arrives as U+FFFD).
        const inUrl = !/[\uD800-\uDFFF]/.test(value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''));
        for (const { method, template, in: where, field } of fields.filter((one) => one.in === 'body' || inUrl)) {
          const url = urlOf(template);
          const before = await snapshot(ctx.app.db);
          const answers = [];
          // Who may comes first: the first of them the route lets in.
          for (const caller of [team.member, team.manager, team.admin]) {
            const response =
              where === 'query'
                ? // A query field of a write goes with a good body, so that the refusal is the field's.
                  await callAs(ctx.app, caller, { method: method as 'GET', url, query: { [field]: value }, payload: goodBodies.get(`${method} ${url}`)?.(), remoteAddress: freshClientAddress() })
                : await callAs(ctx.app, caller, { method: method as 'POST', url, payload: withValueAt(goodBodies.get(`${method} ${url}`)?.() ?? {}, field, value), remoteAddress: freshClientAddress() });
            answers.push(response);
            if (response.statusCode !== 403) break;
          }
          const response = answers.at(-1)!;
          const shown = `${method} ${url} ${where} ${field}=${JSON.stringify(value)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
          // Nobody may send this field but as themselves (a notification list's own e-mail): refused before it is read.
          if (answers.length === 3 && response.statusCode === 403) continue;
          expect(response.statusCode, shown).toBe(400);
          expect(response.json().errors?.[field], shown).toBeDefined();
          expect(await snapshot(ctx.app.db), `${shown} changed the database`).toBe(before);
        }
      }),
      { numRuns: 3 },
    );
  });

  it('ids, limits and offsets in paths and query strings: decimal digits only, else 400', async () => {
    const spoiledUrls = fc.oneof(
      fc.tuple(fc.constantFrom('/api/major-tasks/', '/api/projects/'), numberSpelling).map(([path, id]) => ({ url: `${path}${encodeURIComponent(id)}/`, field: 'id' })),
      fc
        .tuple(fc.constantFrom('/api/subtasks/', '/api/projects/', '/api/users/', '/api/pending-approvals/', '/api/tasks-due-today/', '/api/notifications/'), fc.constantFrom('limit', 'offset'), numberSpelling)
        .filter(([path, param]) => !(path === '/api/notifications/' && param === 'offset'))
        .map(([path, param, value]) => ({ url: `${path}?${param}=${encodeURIComponent(value)}`, field: param })),
      fc.tuple(fc.constantFrom('/api/appraisal-report/', '/api/generate-appraisal-pdf/'), numberSpelling).map(([path, id]) => ({ url: `${path}?user_id=${encodeURIComponent(id)}`, field: 'user_id' })),
      numberSpelling.map((id) => ({ url: `/api/subtasks/?assigned_to=${encodeURIComponent(id)}`, field: 'assigned_to' })),
    );
    await fc.assert(
      fc.asyncProperty(spoiledUrls, async ({ url, field }) => {
        const response = await callAs(ctx.app, spoilable.team.admin, { method: 'GET', url });
        expect(response.statusCode, `${url} → ${response.body.slice(0, 300)}`).toBe(400);
        expect(Object.keys(response.json().errors ?? {}), url).toContain(field);
      }),
      { numRuns: 60 },
    );
  });

  it('dates out of range in report queries: 400 naming the field', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/api/appraisal-report/', '/api/generate-appraisal-pdf/', '/projects/api/manager-appraisal-report/'), fc.constantFrom('start_date', 'end_date'), extremeDate, async (path, field, date) => {
        const response = await callAs(ctx.app, spoilable.team.admin, { method: 'GET', url: `${path}?user_id=${spoilable.team.member.id}&${field}=${date}` });
        expect(response.statusCode, `${path} ${field}=${date} → ${response.body.slice(0, 300)}`).toBe(400);
        expect(response.json().errors?.[field]).toBeDefined();
      }),
      { numRuns: 30 },
    );
  });

  it('a body nested too deeply is refused with 400 before anything reads it, signed in or not', async () => {
    const cases = FIELD_CASES();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...cases), deepJson, async (fieldCase, deep) => {
        const { endpoint } = fieldCase;
        const url = endpoint.path(spoilable.realIdFor(endpoint.path('x')));
        const payload = `${JSON.stringify(fieldCase.body()).slice(0, -1)},"extra":${deep}}`;
        const before = await snapshot(ctx.app.db);
        const response = await callAs(ctx.app, spoilable.callerFor(endpoint.as), { method: endpoint.method, url, payload, headers: { 'content-type': 'application/json' }, remoteAddress: freshClientAddress() });
        expect(response.statusCode, `${endpoint.method} ${url} → ${response.body.slice(0, 200)}`).toBe(400);
        expect(response.json().detail).toBe(JSON_TOO_DEEP);
        expect(await snapshot(ctx.app.db)).toBe(before);
      }),
      { numRuns: 25 },
    );
  });

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
