import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ProjectStatus, SubtaskStatus, TeamWorkloadItem } from '@siteboard/shared';
import { users } from '../../schema/users';
import { describeEachDatabase } from '../../test/build-app';
import { createUser, loginAs } from '../../test/factories';
import { callAs, createTeam, insertMajorTask, insertProject, insertSubtask, listAs, type Caller, type Team } from '../../test/work-factories';

describeEachDatabase('team workload API', (ctx) => {
  describe('GET /api/team-workload/', () => {
    let team: Team;
    let rival: Team;
    let idle: Caller;
    let finished: { id: number; email: string };

    /** A subtask of a fresh project of the given status, assigned by the manager. */
    async function work(assignee: { id: number }, name: string, options: { status?: SubtaskStatus; projectStatus?: ProjectStatus; dueDate?: string | null; team?: Team } = {}) {
      const owner = options.team ?? team;
      const companyId = owner.company.id;
      const project = await insertProject(ctx.app.db, companyId, { managerId: owner.manager.id, status: options.projectStatus ?? 'ongoing' });
      const majorTask = await insertMajorTask(ctx.app.db, companyId, project.id);
      await insertSubtask(ctx.app.db, { companyId, majorTaskId: majorTask.id, assignedToId: assignee.id, assignedById: owner.manager.id, name, status: options.status, dueDate: options.dueDate });
    }

    /** The workload lists team-member records, as the team-members list does: the admin files each one. */
    async function joinTeam(owner: Team, user: { id: number }) {
      const response = await callAs(ctx.app, owner.admin, { method: 'POST', url: '/api/team-members/', payload: { user_id: user.id, manager_id: owner.manager.id } });
      expect(response.statusCode, response.body).toBeLessThan(300);
    }

    beforeAll(async () => {
      team = await createTeam(ctx.app);
      rival = await createTeam(ctx.app);
      // Emails that sort the idle member before the busy one only when the counts are equal.
      const idleUser = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id, email: `zz-idle-${team.company.id}@example.test` });
      idle = { ...idleUser, access: (await loginAs(ctx.app, idleUser)).access };
      // Whose only work is in a finished project: as free as the idle one, and first by email.
      finished = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id, email: `aa-finished-${team.company.id}@example.test` });
      const gone = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
      for (const user of [team.member, idle, finished, gone]) await joinTeam(team, user);
      await joinTeam(rival, rival.member);
      await ctx.app.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, gone.id));

      await work(team.member, 'Pour slab', { dueDate: '2026-12-05' });
      await work(team.member, 'Order rebar', { projectStatus: 'planned', dueDate: '2026-12-01' });
      await work(team.member, 'Undated survey', { dueDate: null });
      await work(team.member, 'Sent for approval', { status: 'pending_approval' });
      await work(team.member, 'Already done', { status: 'completed' });
      await work(team.member, 'Left in a finished project', { projectStatus: 'completed' });
      await work(finished, 'Snag list of a handed-over job', { projectStatus: 'completed' });
      await work(gone, 'Left by someone gone');
      await work(team.otherMember, "Another manager's team");
      await work(rival.member, "Another company's team", { team: rival });
    });

    it("shows a manager their own team, least loaded first, each with the names of their ongoing work in ongoing or planned projects, soonest due first", async () => {
      const { items } = await listAs<TeamWorkloadItem>(ctx.app, team.manager, '/api/team-workload/');

      expect(items).toEqual([
        { user_id: finished.id, email: finished.email, full_name: null, tasks: [], task_count: 0 },
        { user_id: idle.id, email: idle.email, full_name: null, tasks: [], task_count: 0 },
        { user_id: team.member.id, email: team.member.email, full_name: null, tasks: ['Order rebar', 'Pour slab', 'Undated survey'], task_count: 3 },
      ]);
    });

    it("shows another company's manager only their own team", async () => {
      const { items } = await listAs<TeamWorkloadItem>(ctx.app, rival.manager, '/api/team-workload/');

      expect(items).toEqual([{ user_id: rival.member.id, email: rival.member.email, full_name: null, tasks: ["Another company's team"], task_count: 1 }]);
    });

    it('is refused to an admin and to a team member', async () => {
      for (const caller of [team.admin, team.member]) {
        const response = await callAs(ctx.app, caller, { method: 'GET', url: '/api/team-workload/' });
        expect(response.statusCode, caller.role).toBe(403);
      }
    });

    it('runs one statement (the workload) however much work the team has', async () => {
      for (let index = 0; index < 30; index++) await work(team.member, `Extra ${index}`);
      // The manager has made requests before: their identity is checked from memory.
      await callAs(ctx.app, team.manager, { method: 'GET', url: '/api/profile/' });
      ctx.queries.length = 0;

      const { items } = await listAs<TeamWorkloadItem>(ctx.app, team.manager, '/api/team-workload/');

      expect(items.find((item) => item.user_id === team.member.id)?.task_count).toBe(33);
      expect(ctx.queries).toHaveLength(1);
    });
  });
});
