import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/build-app';

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
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
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
        if ((method === 'post' || method === 'patch') && !path.includes('mark-read')) expect((content['application/json'] ?? content['multipart/form-data'])?.schema, label).toBeDefined();
        // A WebSocket succeeds with 101 Switching Protocols, its schema that of the messages.
        const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2') || status === '101');
        expect(success, `${label} has no 2xx response`).toBeDefined();
        if (success![0] !== '204') expect(Object.values(success![1].content ?? {})[0]?.schema, `${label} success schema`).toBeDefined();
      }
    }
  });

  it('serves the docs UI', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(response.statusCode);
    const page = response.statusCode === 302 ? await ctx.app.inject({ method: 'GET', url: response.headers.location as string }) : response;
    expect(page.body).toContain('swagger');
  });
});
