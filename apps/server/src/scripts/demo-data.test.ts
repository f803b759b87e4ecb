import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { expect, it } from 'vitest';
import { notificationRecipients, notifications } from '../schema/notifications';
import { projects } from '../schema/projects';
import { majorTasks, subtasks } from '../schema/tasks';
import { teamMembers, users } from '../schema/users';
import { describeEachDatabase, type TestContext } from '../test/build-app';
import { freshClientAddress } from '../test/factories';
import { DEMO_COMPANY_NAME, DEMO_COMPANY_PASSWORD, DEMO_PASSWORD, seedDemo, type DemoSeed } from './demo-data';

const NOW = new Date('2026-06-15T09:30:00Z');
const TODAY = '2026-06-15';

async function countBy(ctx: TestContext, table: PgTable, column: PgColumn, where?: SQL): Promise<Record<string, number>> {
  const rows = await ctx.app.db
    .select({ key: sql<string>`${column}::text`, count: sql<number>`count(*)::int` })
    .from(table)
    .where(where)
    .groupBy(column);
  return Object.fromEntries(rows.map((row) => [row.key, row.count]));
}

async function rowCount(ctx: TestContext, table: PgTable): Promise<number> {
  const [row] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(table);
  return row!.count;
}

async function snapshotCounts(ctx: TestContext) {
  const tables = { users, teamMembers, projects, majorTasks, subtasks, notifications, notificationRecipients };
  const entries = await Promise.all(Object.entries(tables).map(async ([name, table]) => [name, await rowCount(ctx, table)] as const));
  return Object.fromEntries(entries);
}

describeEachDatabase('demo data', (ctx) => {
  let first: DemoSeed;
  /** Signs a printed account in with its printed password, as the login screen does. */
  const signIn = (account: DemoSeed['accounts'][number]) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/token/',
      remoteAddress: freshClientAddress(),
      payload: { email: account.email, password: DEMO_PASSWORD, role: account.role, company_id: first.companyId },
    });

  it('creates one admin, two managers and six team members, three per manager', async () => {
    first = await seedDemo(ctx.app.db, NOW);

    expect(first.created).toBe(true);
    expect(await countBy(ctx, users, users.role, eq(users.companyId, first.companyId))).toEqual({ admin: 1, manager: 2, team_member: 6 });
    expect(first.accounts.map((account) => account.role)).toEqual(['admin', 'manager', 'manager', ...Array(6).fill('team_member')]);
    const members = await ctx.app.db
      .select({ managerId: users.managerId, recordManagerId: teamMembers.managerId, score: teamMembers.performanceScore })
      .from(users)
      .leftJoin(teamMembers, eq(teamMembers.userId, users.id))
      .where(eq(users.role, 'team_member'));
    expect(members).toHaveLength(6);
    for (const member of members) {
      expect(member.managerId).not.toBeNull();
      expect(member.recordManagerId).toBe(member.managerId);
      expect(member.score).toBe(0);
    }
    expect(Object.values(await countBy(ctx, users, users.managerId, eq(users.role, 'team_member')))).toEqual([3, 3]);
  });

  it('gives every person a full name of their own beside the e-mail they sign in with', async () => {
    expect(first.accounts.map((account) => [account.email, account.full_name])).toEqual([
      ['admin@example.com', 'Helena Brandt'],
      ['manager1@example.com', 'Maria Keller'],
      ['manager2@example.com', 'Daniel Ortega'],
      ['member1@example.com', 'Lucas Martin'],
      ['member2@example.com', 'Sofia Romero'],
      ['member3@example.com', 'Jonas Weber'],
      ['member4@example.com', 'Amélie Laurent'],
      ['member5@example.com', 'Samuel Becker'],
      ['member6@example.com', 'Lucía Navarro'],
    ]);
  });

  it("lets every account follow its device's language, as nobody chose one", async () => {
    for (const account of first.accounts) {
      const login = await signIn(account);
      const profile = await ctx.app.inject({ method: 'GET', url: '/api/profile/', headers: { authorization: `Bearer ${login.json().access}` } });
      expect(profile.json(), account.email).toMatchObject({ language_chosen: false });
    }
  });

  it('covers every project status, every subtask state and priority, and due dates around today', async () => {
    expect(await countBy(ctx, projects, projects.status)).toEqual({ planned: 1, ongoing: 2, completed: 1 });
    const unmanaged = await ctx.app.db.select({ id: projects.id }).from(projects).where(sql`${projects.managerId} is null`);
    expect(unmanaged).toEqual([]);
    expect(await countBy(ctx, subtasks, subtasks.status)).toEqual({ ongoing: 9, pending_approval: 3, completed: 6 });
    expect(Object.keys(await countBy(ctx, subtasks, subtasks.priority)).sort()).toEqual(['high', 'low', 'medium']);

    const dueToday = await countBy(ctx, subtasks, subtasks.status, sql`${subtasks.dueDate} = ${TODAY}`);
    const overdue = await countBy(ctx, subtasks, subtasks.status, sql`${subtasks.dueDate} < ${TODAY} and ${subtasks.status} <> 'completed'`);
    const future = await countBy(ctx, subtasks, subtasks.status, sql`${subtasks.dueDate} > ${TODAY}`);
    expect(dueToday).toEqual({ ongoing: 2, pending_approval: 1 });
    expect(overdue).toEqual({ ongoing: 2, pending_approval: 1 });
    expect(future.ongoing).toBeGreaterThan(0);
  });

  it('keeps each subtask’s people and timestamps consistent with its state', async () => {
    const rows = await ctx.app.db
      .select({
        status: subtasks.status,
        assigneeRole: users.role,
        assignedBy: subtasks.assignedById,
        projectManager: projects.managerId,
        createdBy: majorTasks.createdById,
        createdAt: subtasks.createdAt,
        submittedAt: subtasks.submittedAt,
        completedAt: subtasks.completedAt,
      })
      .from(subtasks)
      .innerJoin(users, eq(users.id, subtasks.assignedToId))
      .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
      .innerJoin(projects, eq(projects.id, majorTasks.projectId));

    expect(rows.filter((row) => row.assigneeRole === 'manager')).toHaveLength(1);
    expect(rows.filter((row) => row.assigneeRole === 'admin')).toEqual([]);
    for (const row of rows) {
      expect(row.assignedBy).toBe(row.projectManager);
      expect(row.createdBy).toBe(row.projectManager);
      expect(row.submittedAt === null).toBe(row.status === 'ongoing');
      expect(row.completedAt === null).toBe(row.status !== 'completed');
      if (row.submittedAt) expect(row.submittedAt.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
      if (row.completedAt) expect(row.completedAt.getTime()).toBeGreaterThan(row.submittedAt!.getTime());
      if (row.completedAt) expect(row.completedAt.getTime()).toBeLessThanOrEqual(NOW.getTime());
    }
    const completedProjectOpenWork = await ctx.app.db
      .select({ id: subtasks.id })
      .from(subtasks)
      .innerJoin(majorTasks, eq(majorTasks.id, subtasks.majorTaskId))
      .innerJoin(projects, eq(projects.id, majorTasks.projectId))
      .where(sql`${projects.status} = 'completed' and ${subtasks.status} <> 'completed'`);
    expect(completedProjectOpenWork).toEqual([]);
  });

  it('writes notifications, each with at least one recipient', async () => {
    const perNotification = await countBy(ctx, notificationRecipients, notificationRecipients.notificationId);

    expect(await rowCount(ctx, notifications)).toBeGreaterThanOrEqual(3);
    expect(Object.keys(perNotification)).toHaveLength(await rowCount(ctx, notifications));
  });

  it("shows a German reader the demo notifications in German", async () => {
    const login = await ctx.app.inject({
      method: 'POST',
      url: '/api/token/',
      remoteAddress: freshClientAddress(),
      payload: { email: 'member1@example.com', password: DEMO_PASSWORD, role: 'team_member', company_id: first.companyId },
    });
    const headers = { authorization: `Bearer ${login.json().access}` };
    expect((await ctx.app.inject({ method: 'PATCH', url: '/api/profile/', headers, payload: { language: 'de' } })).statusCode).toBe(200);

    const list = await ctx.app.inject({ method: 'GET', url: '/api/notifications/', headers });

    expect(list.json().map((record: { notification: { message: string; created_by: string; created_by_name: string | null } }) => record.notification)).toEqual([
      expect.objectContaining({
        message: 'Maria Keller hat Ihnen „Frame ground floor walls“ (Riverside Apartments) zugewiesen, fällig am 15.06.2026',
        created_by: 'manager1@example.com',
        created_by_name: 'Maria Keller',
      }),
    ]);
  });

  it('lets the printed accounts sign in with the printed passwords', async () => {
    const verified = await ctx.app.inject({
      method: 'POST',
      url: '/api/verify-company-password/',
      remoteAddress: freshClientAddress(),
      payload: { company_name: DEMO_COMPANY_NAME, password: DEMO_COMPANY_PASSWORD },
    });
    expect(verified.json()).toEqual({ success: true, company_id: first.companyId, company_name: expect.any(String) });

    for (const account of first.accounts) {
      const login = await signIn(account);
      expect(login.statusCode, account.email).toBe(200);
    }
  });

  it('changes nothing when run a second time, and answers the same accounts', async () => {
    const before = await snapshotCounts(ctx);

    const second = await seedDemo(ctx.app.db, NOW);

    expect(second).toEqual({ created: false, companyId: first.companyId, accounts: first.accounts });
    expect(await snapshotCounts(ctx)).toEqual(before);
  });
});
