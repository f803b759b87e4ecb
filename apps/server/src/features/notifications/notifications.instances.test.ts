import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LIVE_CLOSE_CODES } from '@siteboard/shared';
import type { App } from '../../app';
import { describeTwoInstances } from '../../test/build-app';
import { connectLive, listenLocally, livePath, refusedWith, type TestLiveClient } from '../../test/live-client';
import { callAs, createTeam, insertWork, type Team } from '../../test/work-factories';

/**
 * Two app instances, each with its own connection pool and listening connection, on one
 * PostgreSQL database: what a load balancer in front of N instances looks like.
 */
describeTwoInstances('live notifications across instances', (instances) => {
  let appA: App;
  let appB: App;
  let baseA: string;
  let baseB: string;
  let team: Team;
  const open: TestLiveClient[] = [];

  beforeAll(async () => {
    ({ appA, appB } = instances);
    baseA = await listenLocally(appA);
    baseB = await listenLocally(appB);
    team = await createTeam(appA);
  });
  afterAll(async () => {
    for (const client of open) client.close();
  });

  const connect = async (base: string, caller: Team['member']) => {
    const client = await connectLive(base, livePath(caller, caller.access));
    open.push(client);
    return client;
  };

  it('delivers a change made through instance A to a socket on instance B within a second', async () => {
    const onB = await connect(baseB, team.member);
    const work = await insertWork(appA.db, team, { status: 'pending_approval' });

    const started = performance.now();
    const response = await callAs(appA, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'completed' } });
    const answered = performance.now();
    const message = await onB.next(1_000);
    const arrived = performance.now();

    expect(response.statusCode).toBe(200);
    expect(message).toMatchObject({ type: 'task_approved', created_by: team.manager.email });
    expect(arrived - started).toBeLessThan(1_000);
    if (process.env.SHOW_LATENCY) {
      console.info(`A→B push: ${(arrived - started).toFixed(1)} ms from the PATCH, ${(arrived - answered).toFixed(1)} ms after its response`);
    }
  });

  it('delivers the other way too, and to sockets on both instances at once', async () => {
    const onA = await connect(baseA, team.otherMember);
    const alsoOnB = await connect(baseB, team.otherMember);
    const work = await insertWork(appB.db, team, { status: 'pending_approval' });
    await appB.db.execute(sql`update subtasks set assigned_to_id = ${team.otherMember.id} where id = ${work.subtaskId}`);

    expect((await callAs(appB, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'ongoing' } })).statusCode).toBe(200);

    const [a, b] = await Promise.all([onA.next(1_000), alsoOnB.next(1_000)]);
    expect(a).toEqual(b);
    expect(a.type).toBe('task_declined');
  });

  it('pushes at once even while every API connection of the receiving instance is busy', async () => {
    const onA = await connect(baseA, team.member);
    const work = await insertWork(appB.db, team, { status: 'pending_approval' });
    // Instance A's whole request pool (5 connections in tests) held for two seconds, as under load.
    // (Drizzle queries start when awaited: Promise.resolve sets them off now.)
    const busy = Array.from({ length: 5 }, () => Promise.resolve(appA.db.execute(sql`select pg_sleep(2)`)));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const started = performance.now();
    expect((await callAs(appB, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'completed' } })).statusCode).toBe(200);
    const message = await onA.next(1_000);

    expect(message.type).toBe('task_approved');
    expect(performance.now() - started).toBeLessThan(1_000);
    await Promise.all(busy);
  });

  it("refuses a socket on instance B with another user's token", async () => {
    expect(await refusedWith(baseB, livePath(team.member, team.manager.access))).toBe(403);
    expect(await refusedWith(baseB, livePath(team.member, 'forged'))).toBe(401);
  });

  it('listens again after its listening connection is lost, and has its sockets reload what they missed', async () => {
    const onB = await connect(baseB, team.member);
    // A listener counts once it has run its LISTEN (pg_stat_activity shows a connection's last statement).
    const listenerPids = async () => {
      const result = await appA.db.execute(
        sql`select pid from pg_stat_activity where application_name = 'siteboard-listener' and datname = current_database() and query ilike 'listen %'`,
      );
      return (result as unknown as { rows: { pid: number }[] }).rows.map((row) => row.pid);
    };
    const before = await listenerPids();
    expect(before).toHaveLength(2);

    await appA.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'siteboard-listener' and datname = current_database()`);
    const deadline = Date.now() + 5_000;
    for (;;) {
      const now = await listenerPids();
      if (now.length === 2 && now.every((pid) => !before.includes(pid))) break;
      if (Date.now() > deadline) throw new Error('the listeners did not come back');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // What was announced while it was down never came: the socket is told to reconnect and reload
    // (the web's bell reloads its list on every reopen), not left open and silently short.
    expect(await onB.closed).toEqual({ code: LIVE_CLOSE_CODES.missedSome, reason: expect.stringContaining('reload') });
    const again = await connect(baseB, team.member);
    const work = await insertWork(appA.db, team, { status: 'pending_approval' });
    expect((await callAs(appA, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'completed' } })).statusCode).toBe(200);

    expect((await again.next(2_000)).type).toBe('task_approved');
  });

});
