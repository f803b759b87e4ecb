import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { UNSTORABLE_TEXT, type Role, type User } from '@siteboard/shared';
import { users } from '../../schema/users';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createTeam, expectQueryRefusals, listAs, type Caller, type Team } from '../../test/work-factories';

async function list(ctx: TestContext, caller: Caller, query: string) {
  const { items, total } = await listAs<User>(ctx.app, caller, `/api/users/?${query}`);
  return { emails: items.map((user) => user.email), total };
}

/** Team members of the team's manager, in one statement: nobody signs in as them, so they need no real password. */
async function insertMembers(ctx: TestContext, team: Team, emails: string[], deletedAt: Date | null = null) {
  return ctx.app.db
    .insert(users)
    .values(emails.map((email) => ({ companyId: team.company.id, email, passwordHash: 'not-a-hash', role: 'team_member' as const, code: `TM-${email}`, managerId: team.manager.id, deletedAt })))
    .returning({ id: users.id, email: users.email, role: users.role });
}

const byEmail = (people: { email: string }[]) => people.map((person) => person.email).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));

describeEachDatabase('GET /api/users/ filters and pages', (ctx) => {
  let team: Team;
  let people: { email: string; role: Role }[];
  beforeAll(async () => {
    team = await createTeam(ctx.app);
    // The company's own: the team (an admin, two managers, two members) and twelve more members.
    const more = await insertMembers(ctx, team, Array.from({ length: 12 }, (_, index) => `Crew-${String(index).padStart(2, '0')}@site.test`));
    people = [team.admin, team.manager, team.otherManager, team.member, team.otherMember, ...more];
    // A deleted member and another company's people match the filters below but are never answered or counted.
    await insertMembers(ctx, team, ['crew-gone@site.test'], new Date());
    const rival = await createTeam(ctx.app);
    await insertMembers(ctx, rival, Array.from({ length: 5 }, (_, index) => `crew-rival-${index}@site.test`));
  });

  it('answers the first page, here everyone, with its total when no limit is asked, as the spec calls it', async () => {
    const { items, total } = await listAs<User>(ctx.app, team.member, '/api/users/');

    expect(total).toBe(people.length);
    expect(items.map((user) => user.email)).toEqual(byEmail(people));
  });

  it('pages by e-mail with limit and offset, and counts every match in X-Total-Count', async () => {
    const sorted = byEmail(people);
    const first = await list(ctx, team.admin, 'limit=5');
    const rest = await list(ctx, team.admin, 'limit=200&offset=5');
    const beyond = await list(ctx, team.admin, 'limit=5&offset=100');

    expect(first).toEqual({ emails: sorted.slice(0, 5), total: people.length });
    expect(rest).toEqual({ emails: sorted.slice(5), total: people.length });
    expect(beyond).toEqual({ emails: [], total: people.length });
  });

  it('filters by one role or several', async () => {
    const managers = await list(ctx, team.member, 'role=manager&limit=50');
    const assignable = await list(ctx, team.member, 'role=manager,team_member&limit=3');

    expect(managers).toEqual({ emails: byEmail([team.manager, team.otherManager]), total: 2 });
    const roles: Role[] = ['manager', 'team_member'];
    expect(assignable.emails).toEqual(byEmail(people.filter((person) => roles.includes(person.role))).slice(0, 3));
    expect(assignable.total).toBe(people.length - 1);
  });

  it('searches e-mails as a case-insensitive substring, wildcards taken literally', async () => {
    const crew = people.filter((person) => person.email.startsWith('Crew-'));

    expect(await list(ctx, team.manager, 'search=CREW-&role=team_member&limit=20')).toEqual({ emails: byEmail(crew), total: crew.length });
    expect(await list(ctx, team.manager, 'search=crew-0_&limit=20')).toEqual({ emails: [], total: 0 });
    expect(await list(ctx, team.manager, 'search=%25&limit=20')).toEqual({ emails: [], total: 0 });
    expect((await list(ctx, team.manager, 'search=@site.test&role=admin')).emails).toEqual([]);
  });

  it('finds a person by the name the screens show, too', async () => {
    const named = people.find((person) => person.email.startsWith('Crew-07'))!;
    await ctx.app.db.update(users).set({ fullName: 'Jérôme L’Hôte-Dubœuf' }).where(eq(users.email, named.email));

    expect(await list(ctx, team.manager, `search=${encodeURIComponent('jérôme')}&limit=20`)).toEqual({ emails: [named.email], total: 1 });
    expect(await list(ctx, team.manager, `search=${encodeURIComponent('Dubœuf')}&limit=20`)).toEqual({ emails: [named.email], total: 1 });
  });

  it('runs as many statements for a page of 200 users as for a page of 2', async () => {
    const measure = async (query: string) => {
      ctx.queries.length = 0;
      await list(ctx, team.admin, query);
      return ctx.queries.length;
    };
    const few = await measure('role=manager&limit=2');
    const many = await measure('limit=200');
    const pastTheEnd = await measure('limit=200&offset=500');

    expect(many).toBe(few);
    expect(few).toBeLessThanOrEqual(2); // the token check and the page with its total
    expect(pastTheEnd).toBe(few + 1); // nothing read, so the total is counted apart
  });

  it('refuses malformed parameters with 400 and says which and why', async () => {
    await expectQueryRefusals(ctx.app, team.admin, '/api/users/', [
      ['role=boss', { role: ['role must be a comma list of admin, manager, team_member.'] }],
      ['limit=201', { limit: ['limit must be at most 200.'] }],
      ['limit=0', { limit: ['limit must be at least 1.'] }],
      ['offset=x', { offset: ['offset must be a whole number.'] }],
      ['offset=-3', { offset: ['offset must be a whole number.'] }],
      ['search=%00', { search: [UNSTORABLE_TEXT] }],
    ]);
  });
});

describeEachDatabase('GET /api/users/ order', (ctx) => {
  it('lists people by the name the screens show (the e-mail where there is none), not by e-mail or by when they joined', async () => {
    const team = await createTeam(ctx.app);
    const added = await insertMembers(ctx, team, ['a-zoe@order.test', 'b-adam@order.test', 'c-nameless@order.test', 'd-bea@order.test']);
    const name = (email: string, fullName: string) => ctx.app.db.update(users).set({ fullName }).where(eq(users.email, email));
    await name('a-zoe@order.test', 'Zoé Martin');
    await name('b-adam@order.test', 'adam Ruiz');
    await name('d-bea@order.test', 'Béa Lopez');

    expect(added).toHaveLength(4);
    expect((await list(ctx, team.manager, 'search=order.test&limit=20')).emails).toEqual(['b-adam@order.test', 'd-bea@order.test', 'c-nameless@order.test', 'a-zoe@order.test']);
  });
});
