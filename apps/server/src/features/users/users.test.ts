import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EMAIL_TAKEN, MANAGER_REQUIRED, type User } from '@siteboard/shared';
import { refreshTokens } from '../../schema/auth';
import { teamMembers, users } from '../../schema/users';
import type { TestContext } from '../../test/build-app';
import { describeEachDatabase } from '../../test/build-app';
import { adminWithCrew, call, createThroughApi, signedInAdmin, userPayload } from '../../test/api-users';
import { memberAnswer } from '../../test/factories';
import { DEFAULT_PASSWORD, createUser, freshClientAddress, loginAs, unique } from '../../test/factories';

const MANAGER_INVALID = 'Select an active manager of your company.';
const USER_NOT_FOUND = { detail: 'User not found.' };
const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };

async function listUsers(ctx: TestContext, access: string): Promise<User[]> {
  const response = await call(ctx, access, 'GET', '/api/users/');
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function userRowsWithEmail(ctx: TestContext, email: string) {
  return ctx.app.db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, email.toLowerCase()));
}

async function teamRecordOf(ctx: TestContext, userId: number) {
  const [row] = await ctx.app.db
    .select({ managerId: teamMembers.managerId, performanceScore: teamMembers.performanceScore })
    .from(teamMembers)
    .where(eq(teamMembers.userId, userId));
  return row;
}

describeEachDatabase('users API', (ctx) => {
  describe('GET /api/users/', () => {
    it("lists the company's active users by e-mail, in the user shape, and no other company's", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin, { email: `zzz-${unique('manager')}@example.test`, designation: 'Site lead', mobile_number: '+1 555 0100' });
      const member = await createThroughApi(ctx, admin, { email: `AAA-${unique('member')}@example.test`, role: 'team_member', manager_id: manager.id });
      await createThroughApi(ctx, other, { role: 'manager' });

      const listed = await listUsers(ctx, admin.access);

      const company = { id: admin.company.id, name: admin.company.name };
      expect(listed.map((user) => user.email)).toEqual([member.email, admin.company.admin.email, manager.email]);
      expect(listed[0]).toEqual(memberAnswer(member, 'TM-0003', company, manager));
      expect(listed[2]).toEqual({
        id: manager.id,
        email: manager.email,
        role: 'manager',
        code: 'MGR-0002',
        designation: 'Site lead',
        mobile_number: '+1 555 0100',
        company,
        company_id: admin.company.id,
        manager_id: null,
        manager_data: null,
        full_name: null,
        must_change_password: false,
      });
    });

    it('is open to managers and team members (the assignee picker needs it)', async () => {
      const { admin, manager, member } = await adminWithCrew(ctx);

      for (const user of [manager, member]) {
        const { access } = await loginAs(ctx.app, user);
        const listed = await listUsers(ctx, access);
        expect(listed.map((one) => one.id).sort()).toEqual([admin.company.admin.id, manager.id, member.id].sort());
        // Whose password an admin set (and who has not changed it yet) is the admins' to know.
        expect(listed.filter((one) => 'must_change_password' in one)).toEqual([]);
      }
      expect((await listUsers(ctx, admin.access)).every((one) => typeof one.must_change_password === 'boolean')).toBe(true);
    });

    it("puts a manager's own team first with team_first=true (assignee pickers), then everyone by e-mail", async () => {
      const admin = await signedInAdmin(ctx);
      const mine = await createThroughApi(ctx, admin, { email: `mmm-${unique('manager')}@example.test` });
      const theirs = await createThroughApi(ctx, admin, { email: `aaa-${unique('manager')}@example.test` });
      const myMember = await createThroughApi(ctx, admin, { email: `zzz-${unique('member')}@example.test`, role: 'team_member', manager_id: mine.id });
      const theirMember = await createThroughApi(ctx, admin, { email: `bbb-${unique('member')}@example.test`, role: 'team_member', manager_id: theirs.id });
      const { access } = await loginAs(ctx.app, mine);

      const ordered = (await call(ctx, access, 'GET', '/api/users/?role=manager,team_member&team_first=true')).json() as User[];
      const plain = (await call(ctx, access, 'GET', '/api/users/?role=manager,team_member')).json() as User[];
      const bad = await call(ctx, access, 'GET', '/api/users/?team_first=maybe');

      expect(ordered.map((user) => user.id)).toEqual([myMember.id, theirs.id, theirMember.id, mine.id]);
      expect(plain.map((user) => user.id)).toEqual([theirs.id, theirMember.id, mine.id, myMember.id]);
      expect(bad.statusCode).toBe(400);
    });

    it('refuses a caller without a token', async () => {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/users/' });

      expect(response.statusCode).toBe(401);
    });

    it('runs the same number of queries for 2 users as for 12 (no query per user)', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);

      const countQueries = async () => {
        ctx.queries.length = 0;
        await listUsers(ctx, admin.access);
        return ctx.queries.length;
      };
      const few = await countQueries();
      for (let index = 0; index < 10; index++) await createUser(ctx.app.db, admin.company.id, 'team_member', { managerId: manager.id });
      const many = await countQueries();

      expect(many).toBe(few);
      expect(few).toBeLessThanOrEqual(2); // the token check and the list itself
    });
  });

  describe('POST /api/users/', () => {
    it('creates a manager who can then sign in', async () => {
      const admin = await signedInAdmin(ctx);
      const payload = userPayload({ role: 'manager', full_name: '  Ana Ruiz ', designation: '  Foreman ', mobile_number: '', company_id: admin.company.id });

      const response = await call(ctx, admin.access, 'POST', '/api/users/', payload);

      expect(response.statusCode).toBe(201);
      const created: User = response.json();
      expect(created).toEqual({
        id: expect.any(Number),
        email: payload.email,
        full_name: 'Ana Ruiz',
        role: 'manager',
        code: 'MGR-0002',
        designation: 'Foreman',
        mobile_number: null,
        company: { id: admin.company.id, name: admin.company.name },
        company_id: admin.company.id,
        manager_id: null,
        manager_data: null,
        must_change_password: false,
      });
      const { access } = await loginAs(ctx.app, { id: created.id, email: payload.email, password: DEFAULT_PASSWORD, role: 'manager', companyId: admin.company.id });
      const profile = await call(ctx, access, 'GET', '/api/profile/');
      expect(profile.json()).toEqual({ ...created, language: 'en', language_chosen: false, timezone: null, effective_timezone: 'UTC', email_notifications: 'daily' });
    });

    it("creates a team member with their manager and their team-member record (score 0)", async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);

      const response = await call(ctx, admin.access, 'POST', '/api/users/', userPayload({ role: 'team_member', manager_id: manager.id }));

      expect(response.statusCode).toBe(201);
      const created: User = response.json();
      expect(created).toMatchObject({ role: 'team_member', code: 'TM-0003', manager_id: manager.id, manager_data: { email: manager.email } });
      const records = await call(ctx, admin.access, 'GET', '/api/team-members/');
      expect(records.json()).toEqual([
        {
          id: expect.any(Number),
          user: { id: created.id, email: created.email, full_name: null, company: { id: admin.company.id, name: admin.company.name } },
          manager: { id: manager.id, email: manager.email, full_name: null },
          performance_score: 0,
        },
      ]);
    });

    it('numbers codes per company', async () => {
      const first = await signedInAdmin(ctx);
      const second = await signedInAdmin(ctx);

      const firstManager = await createThroughApi(ctx, first);
      const secondManager = await createThroughApi(ctx, second);
      const firstMember = await createThroughApi(ctx, first, { role: 'team_member', manager_id: firstManager.id });

      expect(firstManager.user.code).toBe('MGR-0002');
      expect(secondManager.user.code).toBe('MGR-0002');
      expect(firstMember.user.code).toBe('TM-0003');
    });

    it('requires a manager for a team member', async () => {
      const admin = await signedInAdmin(ctx);
      const payload = userPayload({ role: 'team_member' });

      const response = await call(ctx, admin.access, 'POST', '/api/users/', payload);

      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: MANAGER_REQUIRED, errors: { manager_id: [MANAGER_REQUIRED] } });
      expect(await userRowsWithEmail(ctx, payload.email)).toEqual([]);
    });

    it("gives another company's manager id the same 404 as an unknown one, and creates nothing", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const foreignManager = await createThroughApi(ctx, other);
      const expected = { detail: 'User not found.' };

      for (const managerId of [foreignManager.id, 999_999]) {
        const payload = userPayload({ role: 'team_member', manager_id: managerId });
        const response = await call(ctx, admin.access, 'POST', '/api/users/', payload);

        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(expected);
        expect(await userRowsWithEmail(ctx, payload.email)).toEqual([]);
      }
    });

    it('refuses as manager a team member, an admin or a deleted manager', async () => {
      const { admin, member } = await adminWithCrew(ctx);
      const deletedManager = await createThroughApi(ctx, admin);
      expect((await call(ctx, admin.access, 'DELETE', `/api/users/${deletedManager.id}/`)).statusCode).toBe(204);

      for (const managerId of [member.id, admin.company.admin.id, deletedManager.id]) {
        const response = await call(ctx, admin.access, 'POST', '/api/users/', userPayload({ role: 'team_member', manager_id: managerId }));

        expect(response.statusCode).toBe(400);
        expect(response.json().errors).toEqual({ manager_id: [MANAGER_INVALID] });
      }
    });

    it("answers 404 for another company's company_id, and creates nothing", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const payload = userPayload({ company_id: other.company.id });

      const response = await call(ctx, admin.access, 'POST', '/api/users/', payload);

      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Company not found.' });
      expect(await userRowsWithEmail(ctx, payload.email)).toEqual([]);
    });

    it("refuses an e-mail already used in the company, whatever its case; another company's or a deleted user's e-mail is free", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const existing = await createThroughApi(ctx, admin);

      const duplicate = await call(ctx, admin.access, 'POST', '/api/users/', userPayload({ email: ` ${existing.email.toUpperCase()} ` }));

      expect(duplicate.statusCode).toBe(400);
      expect(duplicate.json()).toEqual({ detail: EMAIL_TAKEN, errors: { email: [EMAIL_TAKEN] } });
      expect(await userRowsWithEmail(ctx, existing.email)).toHaveLength(1);

      const elsewhere = await call(ctx, other.access, 'POST', '/api/users/', userPayload({ email: existing.email }));
      expect(elsewhere.statusCode).toBe(201);

      expect((await call(ctx, admin.access, 'DELETE', `/api/users/${existing.id}/`)).statusCode).toBe(204);
      const reused = await call(ctx, admin.access, 'POST', '/api/users/', userPayload({ email: existing.email }));
      expect(reused.statusCode).toBe(201);
      expect(reused.json().id).not.toBe(existing.id);
    });

    it('reports a taken e-mail and a bad manager together', async () => {
      const admin = await signedInAdmin(ctx);

      const response = await call(ctx, admin.access, 'POST', '/api/users/', userPayload({ email: admin.company.admin.email, role: 'team_member', manager_id: admin.company.admin.id }));

      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ email: [EMAIL_TAKEN], manager_id: [MANAGER_INVALID] });
      expect(response.json().detail).toBe(`${EMAIL_TAKEN} ${MANAGER_INVALID}`);
    });

    it('reports both refusals together in the admin’s own language, the detail too', async () => {
      const admin = await signedInAdmin(ctx);
      expect((await call(ctx, admin.access, 'PATCH', '/api/profile/', { language: 'de' })).statusCode).toBe(200);

      const response = await call(ctx, admin.access, 'POST', '/api/users/', userPayload({ email: admin.company.admin.email, role: 'team_member', manager_id: admin.company.admin.id }));

      const taken = 'Diese E-Mail-Adresse ist bereits vergeben. Bitte verwenden Sie eine andere.';
      const badManager = 'Wählen Sie einen aktiven Bauleiter Ihrer Firma.';
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: `${taken} ${badManager}`, errors: { email: [taken], manager_id: [badManager] } });
    });

    it('lets exactly one of several concurrent creations with one e-mail win; the others get the duplicate answer', async () => {
      const admin = await signedInAdmin(ctx);
      const email = `${unique('race')}@example.test`;

      const responses = await Promise.all(
        ['', 'upper', '', 'upper', ''].map((variant) =>
          call(ctx, admin.access, 'POST', '/api/users/', userPayload({ email: variant ? email.toUpperCase() : email })),
        ),
      );

      expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 400, 400, 400, 400]);
      for (const response of responses.filter((candidate) => candidate.statusCode === 400)) {
        expect(response.json()).toEqual({ detail: EMAIL_TAKEN, errors: { email: [EMAIL_TAKEN] } });
      }
      expect(await userRowsWithEmail(ctx, email)).toHaveLength(1);
    });

    it('creates the user and their team-member record together or not at all', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);
      const marker = unique('atomic-fail');
      // A real failure in the second step: the database refuses this user's team-member record.
      await ctx.app.db.execute(
        sql.raw(`
          create function refuse_marked_team_member() returns trigger language plpgsql as $$
          begin
            if exists (select 1 from users where id = new.user_id and email like '${marker}%') then raise exception 'refused'; end if;
            return new;
          end $$`),
      );
      await ctx.app.db.execute(
        sql.raw('create trigger refuse_marked_team_member before insert on team_members for each row execute function refuse_marked_team_member()'),
      );
      try {
        const email = `${marker}@example.test`;
        const response = await call(ctx, admin.access, 'POST', '/api/users/', userPayload({ email, role: 'team_member', manager_id: manager.id }));

        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({ detail: 'Internal server error.' });
        expect(await userRowsWithEmail(ctx, email)).toEqual([]);
        expect((await listUsers(ctx, admin.access)).map((user) => user.id).sort()).toEqual([admin.company.admin.id, manager.id].sort());
      } finally {
        await ctx.app.db.execute(sql.raw('drop trigger refuse_marked_team_member on team_members'));
        await ctx.app.db.execute(sql.raw('drop function refuse_marked_team_member()'));
      }
      // The failed attempt's code number was given back with everything else.
      const next = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });
      expect(next.user.code).toBe('TM-0003');
    });

    it.each([
      ['no e-mail', { email: undefined }, 'email', 'Email and password are required.'],
      ['no password', { password: undefined }, 'password', 'Email and password are required.'],
      ['a short password', { password: 'short' }, 'password', 'Password must be at least 8 characters.'],
      ['a malformed e-mail', { email: 'not-an-email' }, 'email', 'Enter a valid email address.'],
      ['the admin role', { role: 'admin' }, 'role', 'Role must be manager or team_member.'],
      ['a malformed mobile number', { mobile_number: 'call me' }, 'mobile_number', 'Enter a valid mobile number.'],
    ])('refuses %s with a field error', async (_case, overrides, field, message) => {
      const admin = await signedInAdmin(ctx);

      const response = await call(ctx, admin.access, 'POST', '/api/users/', userPayload(overrides));

      expect(response.statusCode).toBe(400);
      expect(response.json().errors[field]).toEqual([message]);
    });

    it('is for admins only', async () => {
      const { manager, member } = await adminWithCrew(ctx);

      for (const user of [manager, member]) {
        const { access } = await loginAs(ctx.app, user);
        const payload = userPayload();
        const response = await call(ctx, access, 'POST', '/api/users/', payload);

        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual(FORBIDDEN);
        expect(await userRowsWithEmail(ctx, payload.email)).toEqual([]);
      }
    });
  });

  describe('PATCH /api/users/{id}/', () => {
    it('edits designation and mobile number; blank becomes null', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin, { designation: 'Foreman' });

      const response = await call(ctx, admin.access, 'PATCH', `/api/users/${manager.id}/`, { designation: '', mobile_number: '+44 20 7946 0000' });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ...manager.user, designation: null, mobile_number: '+44 20 7946 0000' });
      expect((await listUsers(ctx, admin.access)).find((user) => user.id === manager.id)).toEqual(response.json());
    });

    it('makes a manager a team member: manager required, code and team-member record follow', async () => {
      const admin = await signedInAdmin(ctx);
      const boss = await createThroughApi(ctx, admin);
      const manager = await createThroughApi(ctx, admin);

      const withoutManager = await call(ctx, admin.access, 'PATCH', `/api/users/${manager.id}/`, { role: 'team_member' });
      expect(withoutManager.statusCode).toBe(400);
      expect(withoutManager.json()).toEqual({ detail: MANAGER_REQUIRED, errors: { manager_id: [MANAGER_REQUIRED] } });

      const response = await call(ctx, admin.access, 'PATCH', `/api/users/${manager.id}/`, { role: 'team_member', manager_id: boss.id });

      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ role: 'team_member', code: 'TM-0003', manager_id: boss.id, manager_data: { email: boss.email } });
      expect(await teamRecordOf(ctx, manager.id)).toEqual({ managerId: boss.id, performanceScore: 0 });
    });

    it("moves a team member to another manager, keeping their score, and takes the record away when they stop being one", async () => {
      const admin = await signedInAdmin(ctx);
      const first = await createThroughApi(ctx, admin);
      const second = await createThroughApi(ctx, admin);
      const member = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: first.id });
      await call(ctx, admin.access, 'POST', '/api/team-members/', { user_id: member.id, manager_id: first.id, performance_score: 70 });

      const moved = await call(ctx, admin.access, 'PATCH', `/api/users/${member.id}/`, { manager_id: second.id });

      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ manager_id: second.id, manager_data: { email: second.email } });
      expect(await teamRecordOf(ctx, member.id)).toEqual({ managerId: second.id, performanceScore: 70 });

      const promoted = await call(ctx, admin.access, 'PATCH', `/api/users/${member.id}/`, { role: 'manager' });

      expect(promoted.statusCode).toBe(200);
      expect(promoted.json()).toMatchObject({ role: 'manager', code: 'MGR-0004', manager_id: null, manager_data: null });
      expect(await teamRecordOf(ctx, member.id)).toBeUndefined();
    });

    it('refuses to take the manager away from a team member', async () => {
      const { admin, member } = await adminWithCrew(ctx);

      const response = await call(ctx, admin.access, 'PATCH', `/api/users/${member.id}/`, { manager_id: null });

      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ manager_id: [MANAGER_REQUIRED] });
    });

    it("refuses another company's manager, a non-manager or the user themselves as manager, and changes nothing", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);
      const member = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });
      const otherMember = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });
      const foreignManager = await createThroughApi(ctx, other);
      const lonelyManager = await createThroughApi(ctx, admin);

      for (const managerId of [foreignManager.id, 999_999]) {
        const response = await call(ctx, admin.access, 'PATCH', `/api/users/${member.id}/`, { manager_id: managerId });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: 'User not found.' });
      }
      const attempts: [number, object][] = [
        [member.id, { manager_id: otherMember.id }],
        [lonelyManager.id, { role: 'team_member', manager_id: lonelyManager.id }],
      ];
      for (const [userId, body] of attempts) {
        const response = await call(ctx, admin.access, 'PATCH', `/api/users/${userId}/`, body);

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ detail: MANAGER_INVALID, errors: { manager_id: [MANAGER_INVALID] } });
      }
      const listed = await listUsers(ctx, admin.access);
      expect(listed.find((user) => user.id === member.id)).toEqual(member.user);
      expect(listed.find((user) => user.id === lonelyManager.id)).toEqual(lonelyManager.user);
    });

    it('refuses to change the role of a manager who still has team members, until they are reassigned', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);
      const successor = await createThroughApi(ctx, admin);
      const member = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });
      const detail = "Reassign this manager's team members before changing their role.";

      for (const role of ['team_member', 'admin']) {
        const response = await call(ctx, admin.access, 'PATCH', `/api/users/${manager.id}/`, { role, manager_id: successor.id });

        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({ detail, errors: { role: [detail] } });
      }
      expect((await listUsers(ctx, admin.access)).find((user) => user.id === manager.id)?.role).toBe('manager');

      expect((await call(ctx, admin.access, 'PATCH', `/api/users/${member.id}/`, { manager_id: successor.id })).statusCode).toBe(200);
      const response = await call(ctx, admin.access, 'PATCH', `/api/users/${manager.id}/`, { role: 'admin' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ role: 'admin', code: 'ADM-0002' });
    });

    it("changes what the user may do at once, on the token they already hold", async () => {
      const admin = await signedInAdmin(ctx);
      const boss = await createThroughApi(ctx, admin);
      const manager = await createThroughApi(ctx, admin);
      const { access } = await loginAs(ctx.app, manager);
      expect((await call(ctx, access, 'GET', '/api/team-members/')).statusCode).toBe(200);

      await call(ctx, admin.access, 'PATCH', `/api/users/${manager.id}/`, { role: 'team_member', manager_id: boss.id });

      expect((await call(ctx, access, 'GET', '/api/team-members/')).statusCode).toBe(403);
    });

    it('refuses an admin their own row', async () => {
      const admin = await signedInAdmin(ctx);

      const response = await call(ctx, admin.access, 'PATCH', `/api/users/${admin.company.admin.id}/`, { designation: 'Boss' });

      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'You cannot edit your own account.' });
      expect((await listUsers(ctx, admin.access))[0]?.designation).toBeNull();
    });

    it("answers 404 for another company's user, an unknown id and a deleted user, and changes nothing", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const foreign = await createThroughApi(ctx, other, { designation: 'Theirs' });
      const deleted = await createThroughApi(ctx, admin);
      await call(ctx, admin.access, 'DELETE', `/api/users/${deleted.id}/`);

      for (const id of [foreign.id, 999_999, deleted.id]) {
        const response = await call(ctx, admin.access, 'PATCH', `/api/users/${id}/`, { designation: 'Mine now' });

        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(USER_NOT_FOUND);
      }
      expect((await listUsers(ctx, other.access)).find((user) => user.id === foreign.id)?.designation).toBe('Theirs');
    });

    it('refuses an empty edit and a malformed id', async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);

      const empty = await call(ctx, admin.access, 'PATCH', `/api/users/${manager.id}/`, {});
      const malformed = await call(ctx, admin.access, 'PATCH', '/api/users/abc/', { designation: 'x' });

      expect(empty.statusCode).toBe(400);
      expect(empty.json().detail).toMatch(/Nothing to update\./);
      expect(malformed.statusCode).toBe(400);
    });

    it('is for admins only', async () => {
      const { admin, manager, member } = await adminWithCrew(ctx);
      const { access } = await loginAs(ctx.app, manager);

      const response = await call(ctx, access, 'PATCH', `/api/users/${member.id}/`, { designation: 'Promoted' });

      expect(response.statusCode).toBe(403);
      expect((await listUsers(ctx, admin.access)).find((user) => user.id === member.id)?.designation).toBeNull();
    });
  });

  describe('DELETE /api/users/{id}/', () => {
    it('hides the user from the list and ends their access at once, while their row stays for history', async () => {
      const { admin, manager, member } = await adminWithCrew(ctx);
      const session = await loginAs(ctx.app, member);
      const secondSession = await loginAs(ctx.app, member);
      expect((await call(ctx, session.access, 'GET', '/api/profile/')).statusCode).toBe(200);

      const response = await call(ctx, admin.access, 'DELETE', `/api/users/${member.id}/`);

      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expect((await listUsers(ctx, admin.access)).map((user) => user.id)).not.toContain(member.id);
      expect((await call(ctx, admin.access, 'GET', '/api/team-members/')).json()).toEqual([]);
      for (const { access, refresh } of [session, secondSession]) {
        expect((await call(ctx, access, 'GET', '/api/profile/')).statusCode).toBe(401);
        expect((await call(ctx, access, 'GET', '/api/users/')).statusCode).toBe(401);
        const refreshed = await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh } });
        expect(refreshed.statusCode).toBe(401);
      }
      const login = await ctx.app.inject({
        method: 'POST',
        url: '/api/token/',
        remoteAddress: freshClientAddress(),
        payload: { email: member.email, password: member.password, role: member.role, company_id: member.companyId },
      });
      expect(login.statusCode).toBe(401);
      const liveTokens = await ctx.app.db
        .select({ jti: refreshTokens.jti })
        .from(refreshTokens)
        .where(and(eq(refreshTokens.userId, member.id), sql`${refreshTokens.revokedAt} is null`));
      expect(liveTokens).toEqual([]);
      // History keeps resolving the id: the row, its e-mail, code and manager are still there.
      const [row] = await ctx.app.db
        .select({ email: users.email, code: users.code, managerId: users.managerId, deleted: sql<boolean>`${users.deletedAt} is not null` })
        .from(users)
        .where(eq(users.id, member.id));
      expect(row).toEqual({ email: member.email, code: 'TM-0003', managerId: manager.id, deleted: true });
    });

    it("refuses to delete a manager who still has team members, until they are reassigned", async () => {
      const admin = await signedInAdmin(ctx);
      const manager = await createThroughApi(ctx, admin);
      const successor = await createThroughApi(ctx, admin);
      const member = await createThroughApi(ctx, admin, { role: 'team_member', manager_id: manager.id });

      const refused = await call(ctx, admin.access, 'DELETE', `/api/users/${manager.id}/`);

      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toEqual({ detail: "Reassign this manager's team members before deleting them." });
      expect((await listUsers(ctx, admin.access)).map((user) => user.id)).toContain(manager.id);

      await call(ctx, admin.access, 'POST', '/api/team-members/', { user_id: member.id, manager_id: successor.id });
      expect((await call(ctx, admin.access, 'DELETE', `/api/users/${manager.id}/`)).statusCode).toBe(204);
    });

    it('lets a manager go once their only team member is deleted', async () => {
      const { admin, manager, member } = await adminWithCrew(ctx);

      expect((await call(ctx, admin.access, 'DELETE', `/api/users/${member.id}/`)).statusCode).toBe(204);
      expect((await call(ctx, admin.access, 'DELETE', `/api/users/${manager.id}/`)).statusCode).toBe(204);
    });

    it('refuses an admin their own row', async () => {
      const admin = await signedInAdmin(ctx);

      const response = await call(ctx, admin.access, 'DELETE', `/api/users/${admin.company.admin.id}/`);

      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ detail: 'You cannot delete your own account.' });
      expect((await call(ctx, admin.access, 'GET', '/api/profile/')).statusCode).toBe(200);
    });

    it("answers 404 for another company's user, an unknown id and an already deleted user", async () => {
      const admin = await signedInAdmin(ctx);
      const other = await signedInAdmin(ctx);
      const foreign = await createThroughApi(ctx, other);
      const deleted = await createThroughApi(ctx, admin);
      await call(ctx, admin.access, 'DELETE', `/api/users/${deleted.id}/`);

      for (const id of [foreign.id, 999_999, deleted.id]) {
        const response = await call(ctx, admin.access, 'DELETE', `/api/users/${id}/`);

        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(USER_NOT_FOUND);
      }
      expect((await listUsers(ctx, other.access)).map((user) => user.id)).toContain(foreign.id);
    });

    it('is for admins only', async () => {
      const { admin, manager, member } = await adminWithCrew(ctx);

      for (const [caller, target] of [[manager, member], [member, manager]] as const) {
        const { access } = await loginAs(ctx.app, caller);
        const response = await call(ctx, access, 'DELETE', `/api/users/${target.id}/`);

        expect(response.statusCode).toBe(403);
      }
      expect((await listUsers(ctx, admin.access)).map((user) => user.id)).toEqual(expect.arrayContaining([manager.id, member.id]));
    });
  });

  it('documents every users route in the OpenAPI document', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();

    expect(Object.keys(document.paths['/api/users/']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(document.paths['/api/users/{id}/']).sort()).toEqual(['delete', 'patch']);
    expect(document.paths['/api/users/{id}/'].delete.parameters.map((parameter: { name: string }) => parameter.name)).toContain('reassign_to');
    expect(Object.keys(document.paths['/api/users/{id}/'].delete.responses)).toContain('409');
    expect(Object.keys(document.paths['/api/users/{id}/password/'])).toEqual(['post']);
    expect(document.paths['/api/users/'].post.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['email', 'password', 'role']));
  });
});
