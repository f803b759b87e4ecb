import { eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { userSchema, type User } from '@siteboard/shared';
import { users } from '../../schema/users';
import { describeEachDatabase } from '../../test/build-app';
import { createTeam, listAs, type Caller, type Team } from '../../test/work-factories';

/** Decision record 118: what a team member sees of colleagues in GET /api/users/, and what managers and admins still see. */
describeEachDatabase("GET /api/users/: a team member does not get colleagues' mobile numbers or managers", (ctx) => {
  let team: Team;
  const mobileOf = new Map<number, string>();

  beforeAll(async () => {
    team = await createTeam(ctx.app);
    const everyone = [team.admin, team.manager, team.otherManager, team.member, team.otherMember];
    for (const [index, person] of everyone.entries()) {
      const mobile = `+1 555 01${String(index).padStart(2, '0')}`;
      mobileOf.set(person.id, mobile);
      await ctx.app.db.update(users).set({ mobileNumber: mobile, designation: `Trade ${index}` }).where(eq(users.id, person.id));
    }
  });

  async function everyoneAs(caller: Caller, query = '') {
    const { items } = await listAs<User>(ctx.app, caller, `/api/users/?limit=50${query}`);
    // The answer keeps the user shape the OpenAPI document gives, whoever asks.
    for (const user of items) expect(() => userSchema.parse(user)).not.toThrow();
    return (person: { id: number }) => items.find((user) => user.id === person.id)!;
  }

  it("gives a team member colleagues' names, codes, roles and designations, but no mobile number but their own manager's, and nobody's manager", async () => {
    const seen = await everyoneAs(team.member);

    const otherMember = seen(team.otherMember);
    expect(otherMember).toMatchObject({ email: team.otherMember.email, role: 'team_member', designation: 'Trade 4' });
    expect(otherMember.code).toMatch(/^TM-\d{4}$/);
    expect(otherMember).toMatchObject({ mobile_number: null, manager_id: null, manager_data: null });
    expect(seen(team.otherManager)).toMatchObject({ email: team.otherManager.email, designation: 'Trade 2', mobile_number: null });
    expect(seen(team.admin)).toMatchObject({ designation: 'Trade 0', mobile_number: null });
    // Their own manager's number, to call them on site.
    expect(seen(team.manager)).toMatchObject({ email: team.manager.email, mobile_number: mobileOf.get(team.manager.id) });
    // Their own record whole.
    expect(seen(team.member)).toMatchObject({ mobile_number: mobileOf.get(team.member.id), manager_id: team.manager.id, manager_data: { email: team.manager.email } });
    expect(Object.values(seen(team.member))).not.toContain(undefined);
  });

  it('hides the same from a team member whatever they filter or search', async () => {
    const picker = await everyoneAs(team.member, '&role=manager,team_member&team_first=true');
    const searched = await everyoneAs(team.otherMember, `&search=${encodeURIComponent(team.member.email)}`);

    expect(picker(team.otherMember)).toMatchObject({ mobile_number: null, manager_id: null, manager_data: null });
    expect(picker(team.otherManager).mobile_number).toBeNull();
    expect(searched(team.member)).toMatchObject({ mobile_number: null, manager_id: null, manager_data: null });
  });

  it("still gives managers and admins every colleague's mobile number and manager", async () => {
    for (const caller of [team.manager, team.otherManager, team.admin]) {
      const seen = await everyoneAs(caller);
      for (const person of [team.admin, team.manager, team.otherManager, team.member, team.otherMember]) {
        expect(seen(person).mobile_number, `${caller.role} sees ${person.email}`).toBe(mobileOf.get(person.id));
      }
      expect(seen(team.otherMember)).toMatchObject({ manager_id: team.otherManager.id, manager_data: { email: team.otherManager.email }, designation: 'Trade 4' });
      expect(seen(team.member)).toMatchObject({ manager_id: team.manager.id, manager_data: { email: team.manager.email } });
    }
  });
});
