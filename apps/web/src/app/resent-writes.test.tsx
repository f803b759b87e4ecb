import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_IN_PROGRESS_CODE } from '@siteboard/shared';
import { projects } from '../../../server/src/schema/projects';
import { createProject } from '../features/projects/api/create-project';
import { deleteProject } from '../features/projects/api/delete-project';
import { apiServerForFile } from '../test/api-server';

// nginx in front of two instances sends a write again to the other instance when the first lost
// its connection before answering (deploy/nginx.conf: proxy_next_upstream … non_idempotent): the
// first may have committed it. The app's writes must act once all the same.
const shared = apiServerForFile(async (server) => {
  const { company, manager } = await server.createCrew();
  return { company, manager };
});

const projectsNamed = async (name: string) => shared.server.database.db.select({ id: projects.id }).from(projects).where(eq(projects.name, name));

describe('a write the proxy sends twice', () => {
  it('creates one project, and the admin gets it as if it had gone once', async () => {
    const { server, company, manager } = shared;
    await server.signIn(company.admin);
    const name = `Canopy ${Date.now().toString(36)}`;
    server.resendOnce('POST', /^\/api\/projects\/$/);

    const created = await createProject({ name, description: '', start_date: '2030-03-01', end_date: '2030-06-30', manager_id: manager.id, status: 'planned' });

    expect(server.requests.filter((request) => request === 'POST /api/projects/')).toHaveLength(2);
    expect(await projectsNamed(name)).toEqual([{ id: created.id }]);
  });

  it('waits for the same write still running on another instance, and gets its answer, not a 409', async () => {
    const { server, company, manager } = shared;
    await server.signIn(company.admin);
    const name = `Pergola ${Date.now().toString(36)}`;
    // The instance the proxy sent it to again says the first is still at it (come back in a second).
    server.answer('POST', /^\/api\/projects\/$/, { status: 409, json: { detail: 'A request with this Idempotency-Key is still in progress: try again in a moment.', code: IDEMPOTENCY_KEY_IN_PROGRESS_CODE }, headers: { 'retry-after': '1' } }, { times: 1 });

    const created = await createProject({ name, description: '', start_date: '2030-03-01', end_date: '2030-06-30', manager_id: manager.id, status: 'planned' });

    expect(server.answered).toContain('POST /api/projects/ 409');
    expect(await projectsNamed(name)).toEqual([{ id: created.id }]);
  });

  it('deletes a project once, and the admin is not told it was not found', async () => {
    const { server, company, manager } = shared;
    await server.signIn(company.admin);
    const name = `Kiosk ${Date.now().toString(36)}`;
    const created = await createProject({ name, description: '', start_date: '2030-03-01', end_date: '2030-06-30', manager_id: manager.id, status: 'planned' });
    server.resendOnce('DELETE', new RegExp(`^/api/projects/${created.id}/$`));

    await expect(deleteProject(created.id)).resolves.toBeUndefined();
    expect(await projectsNamed(name)).toEqual([]);
  });
});
