import { expect, it } from 'vitest';
import { describeEachDatabase } from '../test/build-app';
import { loginAs } from '../test/factories';
import { callAs, createTeamAndRival } from '../test/work-factories';
import { OperatorError, setTemporaryPassword } from './operator-password';

describeEachDatabase('npm run set-password: an operator lets a locked-out admin back in', (ctx) => {
  it('gives the account a temporary password to change at once, and ends its sessions', async () => {
    const [team, rival] = await createTeamAndRival(ctx.app);
    const before = await loginAs(ctx.app, team.admin);

    const done = await setTemporaryPassword(ctx.app.db, `  ${team.company.name.toUpperCase()} `, team.admin.email.toUpperCase());

    expect(done).toMatchObject({ company: team.company.name, email: team.admin.email });
    expect(done.password).toMatch(/^[a-zA-Z2-9]{15}$/);
    // The old password no longer opens it; the new one does, and asks for their own at once.
    await expect(loginAs(ctx.app, team.admin)).rejects.toThrow(/login failed/);
    expect(await loginAs(ctx.app, { ...team.admin, password: done.password })).toMatchObject({ must_change_password: true });
    const refreshed = await ctx.app.inject({ method: 'POST', url: '/api/token/refresh/', payload: { refresh: before.refresh } });
    expect(refreshed.statusCode).toBe(401);
    // Nobody else's password changed.
    expect((await callAs(ctx.app, rival.admin, { method: 'GET', url: '/api/profile/' })).statusCode).toBe(200);
    await expect(loginAs(ctx.app, rival.admin)).resolves.toMatchObject({ must_change_password: false });
  });

  it('says what it did not find: a company by that name, an active account with that e-mail in it', async () => {
    const [team, rival] = await createTeamAndRival(ctx.app);
    await expect(setTemporaryPassword(ctx.app.db, 'No Such Company Ltd', team.admin.email)).rejects.toThrow(new OperatorError('No company is named "No Such Company Ltd" (the name is matched whatever its capitals).'));
    await expect(setTemporaryPassword(ctx.app.db, team.company.name, rival.admin.email)).rejects.toThrow(new OperatorError(`${team.company.name} has no active account with the e-mail ${rival.admin.email}.`));
    await expect(loginAs(ctx.app, rival.admin)).resolves.toMatchObject({ must_change_password: false });
  });
});
