import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_IN_PROGRESS_CODE } from '@siteboard/shared';
import { projects } from '../../../server/src/schema/projects';
import { createProject } from '../features/projects/api/create-project';
import { deleteProject } from '../features/projects/api/delete-project';
import type { User } from '@siteboard/shared';
import type { TestUser } from '../../../server/src/test/factories';
import { api } from '../lib/api-client';
import { storage } from '../lib/storage';
import { apiServerForFile } from '../test/api-server';

// nginx in front of two instances sends a write again to the other instance when the first lost
// its connection before answering (deploy/nginx.conf: proxy_next_upstream … non_idempotent): the
// first may have committed it. The app's writes must act once all the same.
const shared = apiServerForFile(async (server) => {
  const { company, manager } = await server.createCrew();
  return { company, manager };
});

/** What an instance answers a write whose key another instance is still running: come back in a second. */
const IN_PROGRESS = { status: 409, json: { detail: 'A request with this Idempotency-Key is still in progress: try again in a moment.', code: IDEMPOTENCY_KEY_IN_PROGRESS_CODE }, headers: { 'retry-after': '1' } };

/** Signed in on this device as the app is after its sign-in: tokens, company and the user kept. */
async function signedIn(user: TestUser) {
  await shared.server.signIn(user);
  storage.writeUser(await api<User>('/api/profile/'));
}

/** The admin creates a project that another instance says is still running (409): it waits there, to be sent again. */
async function createWaitingBehindItself(prefix: string) {
  const { server, company, manager } = shared;
  await signedIn(company.admin);
  const name = `${prefix} ${Date.now().toString(36)}`;
  server.answer('POST', /^\/api\/projects\/$/, IN_PROGRESS, { times: 1 });
  const creating = createProject({ name, description: '', start_date: '2030-03-01', end_date: '2030-06-30', manager_id: manager.id, status: 'planned' });
  await expect.poll(() => server.answered).toContain('POST /api/projects/ 409');
  return { name, creating };
}

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
    server.answer('POST', /^\/api\/projects\/$/, IN_PROGRESS, { times: 1 });

    const created = await createProject({ name, description: '', start_date: '2030-03-01', end_date: '2030-06-30', manager_id: manager.id, status: 'planned' });

    expect(server.answered).toContain('POST /api/projects/ 409');
    expect(await projectsNamed(name)).toEqual([{ id: created.id }]);
  });

  it('sends it again with a fresh token when the access token ran out during the wait', async () => {
    const { name, creating } = await createWaitingBehindItself('Arbour');
    // Expired while it waited: the server refuses it (401), the refresh token is still good.
    storage.setTokens('expired.access.token', storage.refreshToken!);

    const created = await creating;
    expect(await projectsNamed(name)).toEqual([{ id: created.id }]);
  });

  it('does not send it again as whoever signed in on the device meanwhile', async () => {
    const { server, company } = shared;
    const { name, creating } = await createWaitingBehindItself('Gazebo');
    // The tablet changed hands: another admin of the company signed in.
    const next = await server.createUser(company, 'admin');
    await signedIn(next);

    await expect(creating).rejects.toMatchObject({ status: 409 });
    expect(await projectsNamed(name)).toEqual([]);
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
