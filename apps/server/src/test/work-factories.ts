import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { Priority, ProjectStatus, SubtaskStatus } from '@siteboard/shared';
import type { App } from '../app';
import type { Db } from '../platform';
import { projects } from '../schema/projects';
import { majorTasks, subtasks } from '../schema/tasks';
import { createCompany, createUser, injectAs, loginAs, unique, type TestCompany, type TestUser } from './factories';

/** A signed-in user: who they are and the access token to call as them. */
export interface Caller extends TestUser {
  access: string;
}

/** One company with everyone the work API distinguishes, each signed in. */
export interface Team {
  company: TestCompany;
  admin: Caller;
  manager: Caller;
  otherManager: Caller;
  member: Caller;
  otherMember: Caller;
}

async function signIn(app: App, user: TestUser): Promise<Caller> {
  const { access } = await loginAs(app, user);
  return { ...user, access };
}

export async function createTeam(app: App, options: { timezone?: string } = {}): Promise<Team> {
  const company = await createCompany(app.db, { timezone: options.timezone });
  const manager = await createUser(app.db, company.id, 'manager');
  const otherManager = await createUser(app.db, company.id, 'manager');
  const member = await createUser(app.db, company.id, 'team_member', { managerId: manager.id });
  const otherMember = await createUser(app.db, company.id, 'team_member', { managerId: otherManager.id });
  const [admin, ...rest] = await Promise.all([company.admin, manager, otherManager, member, otherMember].map((user) => signIn(app, user)));
  return { company, admin: admin!, manager: rest[0]!, otherManager: rest[1]!, member: rest[2]!, otherMember: rest[3]! };
}

/** A company of people to test with and a rival company whose objects it must never see. */
export async function createTeamAndRival(app: App): Promise<[team: Team, rival: Team]> {
  return [await createTeam(app), await createTeam(app)];
}

export function callAs(app: App, caller: Caller, options: InjectOptions) {
  return injectAs(app, caller.access, options);
}

/** A list call as the caller, expected to succeed: its rows, and the X-Total-Count it carried (undefined without one). */
export async function listAs<T>(app: App, caller: Caller, url: string): Promise<{ items: T[]; total: number | undefined }> {
  const response = await callAs(app, caller, { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(200);
  const total = response.headers['x-total-count'];
  return { items: response.json(), total: total === undefined ? undefined : Number(total) };
}

/** Each query string is refused with 400, naming each bad field with its messages. */
export async function expectQueryRefusals(app: App, caller: Caller, path: string, cases: [query: string, errors: Record<string, string[]>][]) {
  for (const [query, errors] of cases) {
    const response = await callAs(app, caller, { method: 'GET', url: `${path}?${query}` });
    expect(response.statusCode, query).toBe(400);
    expect(response.json().errors, query).toEqual(errors);
  }
}

export async function insertProject(
  db: Db,
  companyId: number,
  values: { managerId?: number | null; status?: ProjectStatus; name?: string; startDate?: string; endDate?: string; createdAt?: Date } = {},
) {
  const [row] = await db
    .insert(projects)
    .values({
      companyId,
      name: values.name ?? unique('Project'),
      startDate: values.startDate ?? '2026-01-01',
      endDate: values.endDate ?? '2026-12-31',
      status: values.status ?? 'ongoing',
      managerId: values.managerId ?? null,
      // When it was entered in SiteBoard (now unless said): a day before it owes no daily log.
      ...(values.createdAt && { createdAt: values.createdAt }),
    })
    .returning({ id: projects.id });
  return row!;
}

export async function insertMajorTask(db: Db, companyId: number, projectId: number, values: { name?: string; createdById?: number; dueDate?: string | null } = {}) {
  const [row] = await db
    .insert(majorTasks)
    .values({ companyId, projectId, name: values.name ?? unique('Major task'), createdById: values.createdById ?? null, dueDate: values.dueDate ?? null })
    .returning({ id: majorTasks.id });
  return row!;
}

export async function insertSubtask(
  db: Db,
  values: {
    companyId: number;
    majorTaskId: number;
    assignedToId?: number | null;
    assignedById?: number | null;
    dueDate?: string | null;
    status?: SubtaskStatus;
    priority?: Priority;
    name?: string;
  },
) {
  const [row] = await db
    .insert(subtasks)
    .values({
      companyId: values.companyId,
      majorTaskId: values.majorTaskId,
      name: values.name ?? unique('Subtask'),
      assignedToId: values.assignedToId ?? null,
      assignedById: values.assignedById ?? null,
      dueDate: values.dueDate === undefined ? '2026-06-30' : values.dueDate,
      status: values.status ?? 'ongoing',
      priority: values.priority ?? 'medium',
    })
    .returning({ id: subtasks.id });
  return row!;
}

/** A project managed by the team's manager, with one major task and one subtask assigned by that manager to the team's member. */
export async function insertWork(db: Db, team: { company: Pick<TestCompany, 'id'>; manager: Pick<TestUser, 'id'>; member: Pick<TestUser, 'id'> }, options: { projectStatus?: ProjectStatus; status?: SubtaskStatus; dueDate?: string; assignedById?: number; projectManagerId?: number | null } = {}) {
  const companyId = team.company.id;
  const project = await insertProject(db, companyId, {
    managerId: options.projectManagerId === undefined ? team.manager.id : options.projectManagerId,
    status: options.projectStatus,
  });
  const majorTask = await insertMajorTask(db, companyId, project.id, { createdById: team.manager.id, dueDate: options.dueDate ?? '2026-06-30' });
  const subtask = await insertSubtask(db, {
    companyId,
    majorTaskId: majorTask.id,
    assignedToId: team.member.id,
    assignedById: options.assignedById ?? team.manager.id,
    status: options.status,
    dueDate: options.dueDate,
  });
  return { projectId: project.id, majorTaskId: majorTask.id, subtaskId: subtask.id };
}
