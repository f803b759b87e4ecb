import { describe, expect, it } from 'vitest';
import type { TeamMember, User } from '@siteboard/shared';
import type { TestContext } from '../../test/build-app';
import { describeEachDatabase } from '../../test/build-app';
import { adminWithCrew, call, createThroughApi, signedInAdmin } from '../../test/api-users';
import { createUser, loginAs, unique } from '../../test/factories';

const MANAGER_INVALID = 'Select an active manager of your company.';

async function listRecords(ctx: TestContext, access: string): Promise<TeamMember[]> {
  const response = await call(ctx, access, 'GET', '/api/team-members/');
  expect(response.statusCode).toBe(200);
  return response.json();
}

function postRecord(ctx: TestContext, access: string, payload: object) {
  return call(ctx, access, 'POST', '/api/team-members/', payload);
}

describeEachDatabase('team members API', (ctx) => {
  describe('GET /api/team-members/', () => {
    it("shows an admin every active team member of the company, and a manager only their own team", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const first = await createThroughApi(ctx, admin);
      const second = await createThroughApi(ctx, admin);
      const alice = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: first.id, email: `a-${unique('alice')}@example.test` });
      const bob = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: second.id, email: `b-${unique('bob')}@example.test` });
      const gone = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: first.id });
      await call(ctx, admin.access, 'DELETE', `/api/users/${gone.id}/`);
      const foreignManager = await createThroughApi(ctx, other);
      await createThroughApi(ctx, other, { role: 'team_member', manager_id: foreignManager.id });
      const company = { id: admin.company.id, name: admin.company.name };

      const all = await listRecords(ctx, admin.access);

      expect(all).toEqual([
        { id: expect.any(Number), user: { id: alice.id, email: alice.email, full_name: null, company }, manager: { id: first.id, email: first.email, full_name: null }, performance_score: 0 },
        { id: expect.any(Number), user: { id: bob.id, email: bob.email, full_name: null, company }, manager: { id: second.id, email: second.email, full_name: null }, performance_score: 0 },
      ]);
      const { access } = await loginAs(ctx.app, first);
      expect((await listRecords(ctx, access)).map((record) => record.user.id)).toEqual([alice.id]);
    });

    it('is closed to team members and to callers without a token', async () => {
      const { member } = await adminWithCrew(ctx);
      const { access } = await loginAs(ctx.app, member);

      expect((await call(ctx, access, 'GET', '/api/team-members/')).statusCode).toBe(403);
      expect((await ctx.app.inject({ method: 'GET', url: '/api/team-members/' })).statusCode).toBe(401);
    });
  });

  describe('POST /api/team-members/', () => {
    it('creates the record of a team member who has none (201), and sets their manager on the user too', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);
      // A team member without a record, as data from before records were created with users.
      const member = await createUser(ctx.app.db, admin.company.id, 'team_member');

      const response = await postRecord(ctx, admin.access, { user_id: member.id, manager_id: manager.id, performance_score: 0 });

      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({
        id: expect.any(Number),
        user: { id: member.id, email: member.email, full_name: null, company: { id: admin.company.id, name: admin.company.name } },
        manager: { id: manager.id, email: manager.email, full_name: null },
        performance_score: 0,
      });
      const users: User[] = (await call(ctx, admin.access, 'GET', '/api/users/')).json();
      expect(users.find((user) => user.id === member.id)).toMatchObject({ manager_id: manager.id, manager_data: { email: manager.email } });
    });

    it('updates an existing record (200): manager on both record and user; the score only when sent', async () => {
      const admin = await signedInAdmin(ctx);
      const first = await createThroughApi(ctx, admin);
      const second = await createThroughApi(ctx, admin);
      const member = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: first.id });

      const scored = await postRecord(ctx, admin.access, { user_id: member.id, manager_id: first.id, performance_score: 80 });
      expect(scored.statusCode).toBe(200);
      expect(scored.json()).toMatchObject({ manager: { id: first.id }, performance_score: 80 });

      const moved = await postRecord(ctx, admin.access, { user_id: member.id, manager_id: second.id });

      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ id: scored.json().id, manager: { id: second.id, email: second.email, full_name: null }, performance_score: 80 });
      const users: User[] = (await call(ctx, admin.access, 'GET', '/api/users/')).json();
      expect(users.find((user) => user.id === member.id)).toMatchObject({ manager_id: second.id, manager_data: { email: second.email } });
      expect(await listRecords(ctx, admin.access)).toHaveLength(1);
    });

    it("answers 404 for another company's user, an unknown id and a deleted user, and changes nothing", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);
      const foreignManager = await createThroughApi(ctx, other);
      const foreignMember = await createThroughApi(ctx, other, { role: 'team_member', manager_id: foreignManager.id });
      const deleted = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });
      await call(ctx, admin.access, 'DELETE', `/api/users/${deleted.id}/`);

      for (const userId of [foreignMember.id, 999_999, deleted.id]) {
        const response = await postRecord(ctx, admin.access, { user_id: userId, manager_id: manager.id, performance_score: 50 });

        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: 'User not found.' });
      }
      expect(await listRecords(ctx, other.access)).toEqual([expect.objectContaining({ manager: { id: foreignManager.id, email: foreignManager.email, full_name: null }, performance_score: 0 })]);
    });

    it('refuses a user who is not a team member', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);
      const otherManager = await createThroughApi(ctx, admin);

      const response = await postRecord(ctx, admin.access, { user_id: otherManager.id, manager_id: manager.id });

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: 'This user is not a team member.', errors: { user_id: ['This user is not a team member.'] } });
      expect(await listRecords(ctx, admin.access)).toEqual([]);
    });

    it("refuses another company's manager, an unknown one and a non-manager alike, and changes nothing", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);
      const member = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });
      const peer = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });
      const foreignManager = await createThroughApi(ctx, other);

      for (const managerId of [foreignManager.id, 999_999]) {
        const response = await postRecord(ctx, admin.access, { user_id: member.id, manager_id: managerId });

        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: 'User not found.' });
      }
      for (const managerId of [peer.id, admin.company.admin.id]) {
        const response = await postRecord(ctx, admin.access, { user_id: member.id, manager_id: managerId });

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ detail: MANAGER_INVALID, errors: { manager_id: [MANAGER_INVALID] } });
      }
      const users: User[] = (await call(ctx, admin.access, 'GET', '/api/users/')).json();
      expect(users.find((user) => user.id === member.id)?.manager_id).toBe(manager.id);
      expect((await listRecords(ctx, admin.access)).find((record) => record.user.id === member.id)?.manager?.id).toBe(manager.id);
    });

    it.each([
      ['a score above 100', { performance_score: 101 }, 'performance_score', 'Performance score must be between 0 and 100.'],
      ['a negative score', { performance_score: -1 }, 'performance_score', 'Performance score must be between 0 and 100.'],
      ['no manager', { manager_id: undefined }, 'manager_id', 'Select a manager.'],
      ['no user', { user_id: undefined }, 'user_id', 'Select a user.'],
    ])('refuses %s with a field error', async (_case, overrides, field, message) => {
      const { admin, manager, member } = await adminWithCrew(ctx);

      const response = await postRecord(ctx, admin.access, { user_id: member.id, manager_id: manager.id, ...overrides });

      expect(response.statusCode).toBe(400);
      expect(response.json().errors[field]).toEqual([message]);
    });

    it('is for admins only', async () => {
      const { admin, manager, member } = await adminWithCrew(ctx);

      for (const caller of [manager, member]) {
        const { access } = await loginAs(ctx.app, caller);
        const response = await postRecord(ctx, access, { user_id: member.id, manager_id: manager.id, performance_score: 100 });

        expect(response.statusCode).toBe(403);
      }
      expect((await listRecords(ctx, admin.access))[0]?.performance_score).toBe(0);
    });
  });

  it('documents both routes in the OpenAPI document', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();

    expect(Object.keys(document.paths['/api/team-members/']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/api/team-members/'].post.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '403', '404']));
  });
});
