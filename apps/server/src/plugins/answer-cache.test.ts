import zlib from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { App } from '../app';
import { describeEachDatabase, describeTwoInstances } from '../test/build-app';
import { callAs, createTeam, createTeamAndRival, insertWork, listAs, type Team } from '../test/work-factories';

type Row = { id: number; name: string; status: string };

/**
 * The answers an instance keeps (decision record 039): a repeated list call costs no statement,
 * and no one is shown what has since changed, whoever changed it.
 */
describeEachDatabase('answers kept until their company changes', (ctx) => {
  let team: Team;
  let rival: Team;
  beforeAll(async () => {
    [team, rival] = await createTeamAndRival(ctx.app);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Rows written here (not through the API) are announced a moment later: an answer read across that is not kept. */
  const inserted = async (options: Parameters<typeof insertWork>[2], to = team) => {
    const work = await insertWork(ctx.app.db, to, options);
    await ctx.app.answerCache.settle();
    return work;
  };
  const pending = async (caller = team.manager) => (await listAs<Row>(ctx.app, caller, '/api/pending-approvals/')).items;
  /** The statements the call ran, and what it answered. */
  const counted = async <T>(call: () => Promise<T>): Promise<[statements: number, answer: T]> => {
    ctx.queries.length = 0;
    const answer = await call();
    return [ctx.queries.length, answer];
  };

  it('answers the same call again without the database, and shows a change made through the API at once', async () => {
    const work = await inserted({ status: 'pending_approval' });
    const first = await pending();
    expect(first.map((row) => row.id)).toContain(work.subtaskId);

    const [statements, again] = await counted(() => pending());
    expect(statements).toBe(0);
    expect(again).toEqual(first);

    const approved = await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'completed' } });
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await pending()).map((row) => row.id)).not.toContain(work.subtaskId);
  });

  it('forgets a company’s answers when its rows change outside the API, once the database has announced it', async () => {
    const work = await inserted({ status: 'pending_approval' });
    expect((await pending()).find((row) => row.id === work.subtaskId)?.name).not.toBe('Renamed by hand');
    expect((await counted(() => pending()))[0]).toBe(0);

    await ctx.app.db.execute(sql`update subtasks set name = 'Renamed by hand' where id = ${work.subtaskId}`);
    await ctx.app.answerCache.settle();

    expect((await pending()).find((row) => row.id === work.subtaskId)?.name).toBe('Renamed by hand');
  });

  it("keeps each person's answer their own, and another company's changes leave it", async () => {
    const work = await inserted({ status: 'pending_approval' });
    const managers = await pending(team.manager);
    expect(managers.map((row) => row.id)).toContain(work.subtaskId);
    // The other manager neither manages the project nor assigned the work: it is not theirs to decide.
    expect((await pending(team.otherManager)).map((row) => row.id)).not.toContain(work.subtaskId);

    await inserted({ status: 'pending_approval' }, rival);
    const [statements, again] = await counted(() => pending(team.manager));
    expect(statements).toBe(0);
    expect(again).toEqual(managers);
  });

  it('reads the database again in the next minute (answers that say "today" turn at a minute\'s edge)', async () => {
    await ctx.app.answerCache.settle();
    await pending();
    const [sameMinute] = await counted(() => pending());
    expect(sameMinute).toBe(0);

    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 60_000);
    const [nextMinute] = await counted(() => pending());
    expect(nextMinute).toBeGreaterThan(0);
  });

  it('answers again compressed as before, with the total the list carried', async () => {
    await inserted({ status: 'pending_approval' });
    const ask = () => callAs(ctx.app, team.manager, { method: 'GET', url: '/api/pending-approvals/?limit=50', headers: { 'accept-encoding': 'gzip' } });
    const first = await ask();
    const [statements, second] = await counted(ask);

    expect(statements).toBe(0);
    for (const response of [first, second]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['x-total-count']).toBe(first.headers['x-total-count']);
      expect(response.headers['content-security-policy']).toBeDefined();
    }
    expect(JSON.parse(zlib.gunzipSync(second.rawPayload).toString())).toEqual(JSON.parse(zlib.gunzipSync(first.rawPayload).toString()));
  });

  it('refuses at once a manager made a team member, though their answer was kept', async () => {
    const fresh = await createTeam(ctx.app);
    expect((await callAs(ctx.app, fresh.manager, { method: 'GET', url: '/api/team-workload/' })).statusCode).toBe(200);
    expect((await callAs(ctx.app, fresh.manager, { method: 'GET', url: '/api/team-workload/' })).statusCode).toBe(200);

    // Their team goes to the other manager first: a manager with a team cannot be made a member.
    const moved = await callAs(ctx.app, fresh.admin, { method: 'PATCH', url: `/api/users/${fresh.member.id}/`, payload: { manager_id: fresh.otherManager.id } });
    expect(moved.statusCode, moved.body).toBe(200);
    const demoted = await callAs(ctx.app, fresh.admin, { method: 'PATCH', url: `/api/users/${fresh.manager.id}/`, payload: { role: 'team_member', manager_id: fresh.otherManager.id } });
    expect(demoted.statusCode, demoted.body).toBe(200);

    expect((await callAs(ctx.app, fresh.manager, { method: 'GET', url: '/api/team-workload/' })).statusCode).toBe(403);
  });
});

describeEachDatabase(
  'answers with ANSWER_CACHE=false',
  (ctx) => {
    it('reads the database on every call', async () => {
      const team = await createTeam(ctx.app);
      await listAs(ctx.app, team.manager, '/api/pending-approvals/');
      ctx.queries.length = 0;
      await listAs(ctx.app, team.manager, '/api/pending-approvals/');
      expect(ctx.queries.length).toBeGreaterThan(0);
    });
  },
  { answerCache: false },
);

/**
 * Two instances on one PostgreSQL database: a change made through one reaches the other's kept
 * answers as soon as the database's announcement does. "Reached A" is a condition the test waits
 * on (A's own marker coming back through its listener), never a delay.
 */
describeTwoInstances('kept answers across instances', (instances) => {
  let appA: App;
  let appB: App;
  let team: Team;

  beforeAll(async () => {
    ({ appA, appB } = instances);
    team = await createTeam(appA);
  });

  const pendingOn = async (app: App) => (await listAs<Row>(app, team.manager, '/api/pending-approvals/')).items.map((row) => row.id);

  it('shows on instance A a decision made through instance B', async () => {
    const work = await insertWork(appA.db, team, { status: 'pending_approval' });
    expect(await pendingOn(appA)).toContain(work.subtaskId);
    expect(await pendingOn(appA)).toContain(work.subtaskId);

    const approved = await callAs(appB, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'completed' } });
    expect(approved.statusCode, approved.body).toBe(200);
    await appA.answerCache.settle();

    expect(await pendingOn(appA)).not.toContain(work.subtaskId);
  });

  it('keeps nothing while its listening connection is down', async () => {
    await pendingOn(appA);
    expect(appA.answerCache.size).toBeGreaterThan(0);
    await appA.db.execute(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'siteboard-listener' and datname = current_database()`);
    await vi.waitFor(() => expect(appA.answerCache.listening).toBe(false));

    // What is announced meanwhile never arrives: it forgot everything, and keeps nothing new.
    expect(appA.answerCache.size).toBe(0);
    await pendingOn(appA);
    expect(appA.answerCache.size).toBe(0);
  });

});
