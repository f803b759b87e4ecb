import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { LIVE_PROTOCOL, LIVE_TOKEN_PROTOCOL_PREFIX, type NotificationRecord } from '@siteboard/shared';
import type { App } from '../../app';
import { notificationRecipients, notifications } from '../../schema/notifications';
import { buildTestApp, createTestDatabase, describeEachDatabase, TEST_JWT_SECRET, type TestContext } from '../../test/build-app';
import { loginAs } from '../../test/factories';
import { connectLive, listenLocally, livePath, refusedWith, type TestLiveClient } from '../../test/live-client';
import { callAs, createTeam, insertWork, type Caller, type Team } from '../../test/work-factories';
import { MAX_BUFFERED_BYTES, MAX_SOCKETS_PER_USER } from './notifications.live';
import { NOTIFICATION_KIND } from './notifications.queries';
import { CHANGES_CHANNEL } from '../../platform';
import { runSweeps } from './notifications.service';

function approve(app: App, manager: Caller, subtaskId: number) {
  return callAs(app, manager, { method: 'PATCH', url: `/api/subtasks/${subtaskId}/`, payload: { status: 'completed' } });
}

async function countFor(ctx: TestContext, userId: number) {
  const [row] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(notificationRecipients).where(eq(notificationRecipients.userId, userId));
  return row!.count;
}

describeEachDatabase('live notifications over WebSocket', (ctx) => {
  let base: string;
  let team: Team;
  let rival: Team;
  const open: TestLiveClient[] = [];
  const connect = async (caller: Caller, token = caller.access) => {
    const client = await connectLive(base, livePath(caller, token));
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    base = await listenLocally(ctx.app);
    team = await createTeam(ctx.app);
    rival = await createTeam(ctx.app);
  });
  afterAll(() => {
    for (const client of open) client.close();
  });

  it('pushes each new notification to its recipient, with the id the list answers', async () => {
    const client = await connect(team.member);
    const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });

    expect((await approve(ctx.app, team.manager, work.subtaskId)).statusCode).toBe(200);
    const message = await client.next();

    const [record] = (await callAs(ctx.app, team.member, { method: 'GET', url: '/api/notifications/' })).json() as NotificationRecord[];
    expect(message).toEqual({
      id: record!.id,
      type: 'task_approved',
      message: record!.notification.message,
      created_by: team.manager.email,
      created_by_name: null,
      timestamp: record!.notification.created_at,
      subtask_id: work.subtaskId,
    });
    expect(message.message).toContain(`${team.manager.email} approved '`);
  });

  it("ends a live connection the moment its login ends, before anything more reaches it; the user's other logins go on", async () => {
    // This app's heartbeat is 30 s: what follows is the change feed's doing, not a beat's.
    const ending = await loginAs(ctx.app, team.member);
    const kept = await connect(team.member);
    const client = await connect(team.member, ending.access);
    const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });

    expect((await ctx.app.inject({ method: 'POST', url: '/api/token/revoke/', payload: { refresh: ending.refresh } })).statusCode).toBe(204);
    expect((await approve(ctx.app, team.manager, work.subtaskId)).statusCode).toBe(200);

    expect(await within(client.closed, 3_000)).toMatchObject({ code: 4401 });
    expect(client.received).toEqual([]);
    expect(await kept.next()).toMatchObject({ type: 'task_approved', subtask_id: work.subtaskId });
    kept.close();
  });

  it('takes the token as a subprotocol instead of in the URL, and answers with its own subprotocol only', async () => {
    const pathWithoutToken = `/ws/notifications/${team.member.id}/${encodeURIComponent(team.member.email)}/`;
    const client = await connectLive(base, pathWithoutToken, [LIVE_PROTOCOL, `${LIVE_TOKEN_PROTOCOL_PREFIX}${team.member.access}`]);
    open.push(client);
    expect(client.socket.protocol).toBe(LIVE_PROTOCOL);
    const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
    expect((await approve(ctx.app, team.manager, work.subtaskId)).statusCode).toBe(200);
    expect((await client.next()).type).toBe('task_approved');

    expect(await refusedWith(base, pathWithoutToken, [LIVE_PROTOCOL, `${LIVE_TOKEN_PROTOCOL_PREFIX}not-a-token`])).toBe(401);
    expect(await refusedWith(base, pathWithoutToken, [LIVE_PROTOCOL])).toBe(401);
    expect(await refusedWith(base, `/ws/notifications/${team.manager.id}/${encodeURIComponent(team.manager.email)}/`, [LIVE_PROTOCOL, `${LIVE_TOKEN_PROTOCOL_PREFIX}${team.member.access}`])).toBe(403);
  });

  it('pushes to every socket of the user (two tabs) and to nobody else', async () => {
    const tab1 = await connect(team.otherMember);
    const tab2 = await connect(team.otherMember);
    const bystander = await connect(team.member);
    const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });
    await ctx.app.db.execute(sql`update subtasks set assigned_to_id = ${team.otherMember.id} where id = ${work.subtaskId}`);

    expect((await approve(ctx.app, team.manager, work.subtaskId)).statusCode).toBe(200);

    expect((await tab1.next()).type).toBe('task_approved');
    expect((await tab2.next()).type).toBe('task_approved');
    await bystander.expectSilence(300);
  });

  it('keeps at most ten sockets per user: an eleventh closes the oldest (1000, so it does not reconnect), the others stay open', async () => {
    const sockets: TestLiveClient[] = [];
    for (let count = 0; count < MAX_SOCKETS_PER_USER; count++) sockets.push(await connect(team.admin));
    const newest = await connect(team.admin);

    const closed = await sockets[0]!.closed;
    expect(closed.code).toBe(1000);
    expect(closed.reason).toContain('Too many live connections');
    for (const socket of [...sockets.slice(1), newest]) expect(socket.socket.readyState, 'still open').toBe(socket.socket.OPEN);
  });

  it('refuses the upgrade without a valid access token of an active login (401)', async () => {
    const fresh = await createTeam(ctx.app);
    const pair = await loginAs(ctx.app, fresh.member);
    await ctx.app.inject({ method: 'POST', url: '/api/token/revoke/', payload: { refresh: pair.refresh } });

    expect(await refusedWith(base, `/ws/notifications/${team.member.id}/${encodeURIComponent(team.member.email)}/`)).toBe(401);
    expect(await refusedWith(base, livePath(team.member, 'not-a-token'))).toBe(401);
    expect(await refusedWith(base, livePath(team.member, (await loginAs(ctx.app, team.member)).refresh))).toBe(401);
    expect(await refusedWith(base, livePath(fresh.member, pair.access))).toBe(401);
  });

  it("refuses a token on a colleague's path, or a path whose e-mail is not the user's (403), on another company's user's path (404); accepts the e-mail in any case", async () => {
    expect(await refusedWith(base, livePath(team.manager, team.member.access))).toBe(403);
    expect(await refusedWith(base, livePath(rival.member, team.member.access))).toBe(404);
    expect(await refusedWith(base, livePath({ id: team.member.id, email: team.otherMember.email }, team.member.access))).toBe(403);

    const client = await connect({ ...team.member, email: team.member.email.toUpperCase() });
    expect(client.socket.readyState).toBe(client.socket.OPEN);
  });

  it('answers a plain HTTP request with 426 Upgrade Required', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: livePath(team.member, team.member.access) });
    expect(response.statusCode).toBe(426);
    expect(response.headers.upgrade).toBe('websocket');
  });

  it("never pushes one company's notification to a user of another company, even when announced for them", async () => {
    const outsider = await connect(rival.member);
    const insider = await connect(team.member);
    const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });

    expect((await approve(ctx.app, team.manager, work.subtaskId)).statusCode).toBe(200);
    const pushed = await insider.next();
    const [row] = await ctx.app.db.select({ id: notifications.id }).from(notifications).where(eq(notifications.subtaskId, work.subtaskId));
    // Forged announcements: the notification for the outsider under its own company, and under the outsider's company.
    for (const company of [team.company.id, rival.company.id]) {
      const payload = JSON.stringify({ id: row!.id, company, users: [rival.member.id, team.member.id] });
      await ctx.app.db.execute(sql`select pg_notify(${CHANGES_CHANNEL}, ${`${NOTIFICATION_KIND}:${payload}`})`);
    }

    expect(pushed.type).toBe('task_approved');
    await outsider.expectSilence(400);
    // The insider hears the re-announcement under its own company, not the one under the outsider's.
    expect(insider.received.filter((message) => message.id === pushed.id)).toHaveLength(2);
  });

  it('writes nothing and pushes nothing when the change rolls back', async () => {
    const client = await connect(team.member);
    const work = await insertWork(ctx.app.db, team);
    const before = await countFor(ctx, team.member.id);
    // Fails the transaction after the subtask and its notification were written (its major task's due date is refreshed last).
    await ctx.app.db.execute(sql.raw(`
      create function refuse_due_date() returns trigger language plpgsql as $$
      begin raise exception 'refused by test'; end $$`));
    await ctx.app.db.execute(sql`create trigger refuse_due_date before update on major_tasks for each row execute function refuse_due_date()`);
    try {
      const response = await callAs(ctx.app, team.manager, {
        method: 'POST',
        url: '/api/subtasks/',
        payload: { major_task: work.majorTaskId, name: 'Never happens', assigned_to_id: team.member.id, due_date: '2026-10-01' },
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await ctx.app.db.execute(sql`drop trigger refuse_due_date on major_tasks`);
      await ctx.app.db.execute(sql`drop function refuse_due_date()`);
    }

    await client.expectSilence(400);
    expect(await countFor(ctx, team.member.id)).toBe(before);
  });

  it('pushes what the sweeps create', async () => {
    const client = await connect(rival.member);
    const now = new Date('2026-03-10T12:00:00Z');
    await insertWork(ctx.app.db, rival, { dueDate: '2026-03-11' });

    await runSweeps(ctx.app.db, { now, approvalDelayHours: 48 });

    expect(await client.next()).toMatchObject({ type: 'deadline_reminder', created_by: 'System', message: expect.stringContaining('is due tomorrow (2026-03-11)') });
  });

  it('cuts off a client that lets more than 1 MiB pile up unsent', async () => {
    const fake = await fakeSocket(MAX_BUFFERED_BYTES + 1);
    ctx.app.liveNotifications.add(fake.socket, { userId: team.member.id, companyId: team.company.id, family: 'unused' });
    const work = await insertWork(ctx.app.db, team, { status: 'pending_approval' });

    expect((await approve(ctx.app, team.manager, work.subtaskId)).statusCode).toBe(200);
    await fake.terminated;

    expect(fake.sent).toEqual([]);
  });
});

/** A socket that never drains: enough to see the hub give up on it. */
async function fakeSocket(bufferedAmount: number) {
  const { EventEmitter } = await import('node:events');
  const emitter = new EventEmitter();
  const sent: string[] = [];
  let markTerminated: () => void;
  const terminated = new Promise<void>((resolve) => (markTerminated = resolve));
  const socket = Object.assign(emitter, {
    OPEN: 1,
    readyState: 1,
    bufferedAmount,
    send: (data: string) => sent.push(data),
    ping: () => {},
    close: () => {},
    terminate: () => {
      socket.readyState = 3;
      markTerminated();
      emitter.emit('close');
    },
  });
  return { socket: socket as unknown as WebSocket, sent, terminated };
}

describeEachDatabase('live connections end with the login', (ctx) => {
  let app: App;
  let base: string;
  let team: Team;
  beforeAll(async () => {
    // A second app on the same database with a fast heartbeat: closing on deletion waits for a beat.
    app = await buildTestApp({ database: ctx.database, jwtSecret: TEST_JWT_SECRET, livePingIntervalMs: 300 });
    base = await listenLocally(app);
    team = await createTeam(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('closes the socket with 4401 when its user is deleted', async () => {
    const client = await connectLive(base, livePath(team.member, team.member.access));

    const response = await callAs(app, team.admin, { method: 'DELETE', url: `/api/users/${team.member.id}/` });
    expect(response.statusCode).toBe(204);

    expect(await within(client.closed, 3_000)).toMatchObject({ code: 4401 });
  });

  it('closes the socket with 4401 when its login is revoked, and keeps the other logins of the user', async () => {
    const revoked = await loginAs(app, team.otherMember);
    const kept = await connectLive(base, livePath(team.otherMember, team.otherMember.access));
    const client = await connectLive(base, livePath(team.otherMember, revoked.access));

    expect((await app.inject({ method: 'POST', url: '/api/token/revoke/', payload: { refresh: revoked.refresh } })).statusCode).toBe(204);

    expect(await within(client.closed, 3_000)).toMatchObject({ code: 4401 });
    expect(kept.socket.readyState).toBe(kept.socket.OPEN);
    kept.close();
  });

  it('terminates a socket that stops answering pings', async () => {
    const client = await connectLive(base, livePath(team.manager, team.manager.access));
    const before = app.liveNotifications.size();
    // A paused client reads nothing, so it never answers a ping.
    client.socket.pause();

    await waitFor(() => app.liveNotifications.size() < before, 3_000);
    client.socket.terminate();
  });

  describe('on shutdown', () => {
    it('closes every socket with 1001', async () => {
      const other = await buildTestApp({ database: ctx.database, jwtSecret: TEST_JWT_SECRET });
      const otherBase = await listenLocally(other);
      const client = await connectLive(otherBase, livePath(team.manager, team.manager.access));

      await other.close();

      expect(await within(client.closed, 3_000)).toMatchObject({ code: 1001 });
    });
  });
});

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);
}

async function waitFor(condition: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('request logs', () => {
  it('never show the access token a live connection carries in its URL', async () => {
    const database = await createTestDatabase('pglite');
    const lines: string[] = [];
    const app = await buildTestApp({ database, jwtSecret: TEST_JWT_SECRET, logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
    try {
      const base = await listenLocally(app);
      const team = await createTeam(app);
      const client = await connectLive(base, livePath(team.member, team.member.access));
      client.close();
      // The server decodes parameter names: a spelling the log did not decode still carries the token.
      const spelledOtherwise = await connectLive(base, livePath(team.manager, team.manager.access).replace('?token=', '?%74oken='));
      spelledOtherwise.close();
      expect(await refusedWith(base, livePath(team.manager, team.member.access))).toBe(403);

      const log = lines.join('');
      expect(log).toContain(`/ws/notifications/${team.member.id}/`);
      expect(log).toContain('token=[redacted]');
      expect(log).toContain('%74oken=[redacted]');
      expect(log).not.toContain(team.member.access);
      expect(log).not.toContain(team.manager.access);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
