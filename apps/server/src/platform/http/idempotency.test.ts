import { createHash, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, expect, it, vi } from 'vitest';
import { IDEMPOTENCY_KEY_IN_PROGRESS_CODE } from '@siteboard/shared';
import { subtaskActivity, subtaskAttachments } from '../../schema/activity';
import { idempotencyKeys } from '../../schema/idempotency';
import { subtasks } from '../../schema/tasks';
import { buildTestApp, describeEachDatabase, openAnotherConnection, TEST_JWT_SECRET, type TestContext, type TestDatabase } from '../../test/build-app';
import { afterCommit } from '../database/change-feed';
import { createUser } from '../../test/factories';
import { holdUncommitted, waitingForLocks } from '../../test/uncommitted';
import { callAs, createTeam, insertWork, type Caller, type Team } from '../../test/work-factories';
import { fingerprintKey, KEY_INVALID, KEY_REUSED, KEYS_PER_USER, REPLAYED_HEADER, requestFingerprint, sweepIdempotencyKeys } from './idempotency';

const createSubtask = (ctx: TestContext, caller: Caller, key: string | undefined, payload: object) =>
  callAs(ctx.app, caller, { method: 'POST', url: '/api/subtasks/', payload, headers: key === undefined ? {} : { 'idempotency-key': key } });

async function subtasksNamed(ctx: TestContext, name: string) {
  const [row] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(subtasks).where(eq(subtasks.name, name));
  return row!.count;
}

async function photoForm(background = '#208040') {
  const bytes = await sharp({ create: { width: 30, height: 20, channels: 3, background } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'proof.jpg');
  // A new Response per call: each form gets its own boundary, as a client rebuilding it would.
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } };
}

describeEachDatabase('Idempotency-Key', (ctx) => {
  let team: Team;
  let work: Awaited<ReturnType<typeof insertWork>>;
  beforeAll(async () => {
    team = await createTeam(ctx.app);
    work = await insertWork(ctx.app.db, team);
  });

  it('answers a repeat with the first answer and acts once', async () => {
    const key = randomUUID();
    const payload = { major_task_id: work.majorTaskId, name: 'Pour slab', assigned_to_id: team.member.id, due_date: '2099-08-01' };

    const first = await createSubtask(ctx, team.manager, key, payload);
    const second = await createSubtask(ctx, team.manager, key, { ...payload });

    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    expect(second.headers[REPLAYED_HEADER]).toBe('true');
    expect(first.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(await subtasksNamed(ctx, 'Pour slab')).toBe(1);
  });

  it('refuses the same key with a different body (422) and acts not at all', async () => {
    const key = randomUUID();
    const payload = { major_task_id: work.majorTaskId, name: 'Frame walls', assigned_to_id: team.member.id, due_date: '2099-08-01' };
    expect((await createSubtask(ctx, team.manager, key, payload)).statusCode).toBe(201);

    const other = await createSubtask(ctx, team.manager, key, { ...payload, name: 'Frame roof' });

    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({ detail: KEY_REUSED });
    expect(await subtasksNamed(ctx, 'Frame roof')).toBe(0);
  });

  it('refuses a reused key and a malformed one in the caller’s language', async () => {
    const crew = await createTeam(ctx.app);
    const site = await insertWork(ctx.app.db, crew);
    // Keyed too: a change every instance must hear of is settled after the write's commit.
    expect((await callAs(ctx.app, crew.manager, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' }, headers: { 'idempotency-key': randomUUID() } })).statusCode).toBe(200);
    const key = randomUUID();
    const payload = { major_task_id: site.majorTaskId, name: 'Set formwork', assigned_to_id: crew.member.id, due_date: '2099-08-01' };
    expect((await createSubtask(ctx, crew.manager, key, payload)).statusCode).toBe(201);

    const reused = await createSubtask(ctx, crew.manager, key, { ...payload, name: 'Strip formwork' });
    const malformed = await createSubtask(ctx, crew.manager, ' ', payload);

    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({ detail: 'Dieser Idempotency-Key wurde schon für eine andere Anfrage verwendet: Senden Sie zu jeder neuen Anfrage einen neuen Schlüssel.' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ detail: 'Der Header Idempotency-Key muss 1 bis 255 druckbare ASCII-Zeichen lang sein.' });
  });

  it("keeps another user's identical key apart", async () => {
    const key = randomUUID();
    const payload = { major_task_id: work.majorTaskId, name: 'Hang doors', assigned_to_id: team.member.id, due_date: '2099-08-01' };

    const mine = await createSubtask(ctx, team.manager, key, payload);
    const theirs = await createSubtask(ctx, team.otherManager, key, payload);

    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers[REPLAYED_HEADER]).toBeUndefined();
    expect(theirs.json().id).not.toBe(mine.json().id);
    expect(await subtasksNamed(ctx, 'Hang doors')).toBe(2);
  });

  it('acts once for concurrent duplicates, and each gets the same answer', async () => {
    const key = randomUUID();
    const payload = { major_task_id: work.majorTaskId, name: 'Lay tiles', assigned_to_id: team.member.id, due_date: '2099-08-01' };

    const answers = await Promise.all([1, 2, 3].map(() => createSubtask(ctx, team.manager, key, payload)));

    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((answer) => answer.json().id)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers[REPLAYED_HEADER] === 'true')).toHaveLength(2);
    expect(await subtasksNamed(ctx, 'Lay tiles')).toBe(1);
  });

  /** Another transaction holds a subtask's row (FOR UPDATE) until `release`; `holder` ends with it. */
  /** Someone else holds the subtask's row, uncommitted, until `release`. */
  const holdSubtaskRow = (subtaskId: number) => holdUncommitted(ctx.app.db, (tx) => tx.execute(sql`select id from subtasks where id = ${subtaskId} for update`));


  it('answers a duplicate 409 with Retry-After when its first request holds the key too long, then replays the first answer', async ({ skip }) => {
    // The embedded database has one connection, which a keyed write holds from its claim to its
    // answer: a duplicate waits for that connection as every other request does, never for the
    // key's row, so there is no wait of its own to bound.
    if (ctx.kind !== 'postgres') skip();
    const crew = await createTeam(ctx.app);
    const site = await insertWork(ctx.app.db, crew);
    expect((await callAs(ctx.app, crew.member, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } })).statusCode).toBe(200);
    // A second instance on the same database, whose duplicates wait a tenth of a second.
    const secondConnection = await openAnotherConnection(ctx.database as TestDatabase);
    const other = await buildTestApp({ database: secondConnection, jwtSecret: TEST_JWT_SECRET, idempotencyKeyWaitMs: 100 });
    const key = randomUUID();
    const send = (app: typeof ctx.app) =>
      callAs(app, crew.member, { method: 'PATCH', url: `/api/subtasks/${site.subtaskId}/`, payload: { status: 'pending_approval', comment: 'Done' }, headers: { 'idempotency-key': key } });
    try {
      // Someone else holds the subtask's row: the first request claims its key, then waits.
      const { release, holder } = await holdSubtaskRow(site.subtaskId);
      const first = send(ctx.app);
      await vi.waitFor(async () => expect(await waitingForLocks(ctx.app.db)).toBe(1), { timeout: 10_000, interval: 20 });

      const duplicate = await send(other);

      expect(duplicate.statusCode, duplicate.body).toBe(409);
      expect(duplicate.headers['retry-after']).toBe('1');
      expect(duplicate.json()).toEqual({ detail: 'Eine Anfrage mit diesem Idempotency-Key läuft noch: Versuchen Sie es gleich noch einmal.', code: IDEMPOTENCY_KEY_IN_PROGRESS_CODE });
      // The first request's own wait is not bounded by its key's: it ends as it would have.
      release();
      await holder;
      expect((await first).statusCode).toBe(200);
      const retried = await send(other);
      expect(retried.statusCode).toBe(200);
      expect(retried.headers[REPLAYED_HEADER]).toBe('true');
      const history = await ctx.app.db.select({ id: subtaskActivity.id }).from(subtaskActivity).where(eq(subtaskActivity.subtaskId, site.subtaskId));
      expect(history).toHaveLength(1);
    } finally {
      await other.close();
      await secondConnection.close();
    }
  });

  it('takes over a stale claim without bounding the route’s own waits by the key’s limit', async ({ skip }) => {
    if (ctx.kind !== 'postgres') skip();
    const crew = await createTeam(ctx.app);
    const site = await insertWork(ctx.app.db, crew);
    const secondConnection = await openAnotherConnection(ctx.database as TestDatabase);
    const other = await buildTestApp({ database: secondConnection, jwtSecret: TEST_JWT_SECRET, idempotencyKeyWaitMs: 100 });
    const key = randomUUID();
    const url = `/api/subtasks/${site.subtaskId}/`;
    const payload = { status: 'pending_approval', comment: 'Done' };
    // A claim left unanswered an hour ago (a server that died before 050): the next request takes it over.
    await ctx.app.db.insert(idempotencyKeys).values({
      companyId: crew.company.id,
      userId: crew.member.id,
      key,
      fingerprint: requestFingerprint(fingerprintKey(TEST_JWT_SECRET), 'PATCH', url, payload),
      createdAt: new Date(Date.now() - 3_600_000),
    });
    /** How long the request has waited for a row lock, in ms (0: it is not waiting). */
    const lockWaitMs = async () => {
      const result = await ctx.app.db.execute(
        sql`select coalesce(max(extract(epoch from now() - query_start) * 1000), 0)::int as ms from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      );
      return (result as unknown as { rows: { ms: number }[] }).rows[0]!.ms;
    };
    const { release, holder } = await holdSubtaskRow(site.subtaskId);
    try {
      const sent = callAs(other, crew.member, { method: 'PATCH', url, payload, headers: { 'idempotency-key': key } });
      // Waiting five times the key's limit for the subtask's row: the route's wait is its own.
      await vi.waitFor(async () => expect(await lockWaitMs()).toBeGreaterThan(500), { timeout: 10_000, interval: 50 });
      release();
      await holder;
      const answer = await sent;
      expect(answer.statusCode, answer.body).toBe(200);
      const history = await ctx.app.db.select({ id: subtaskActivity.id }).from(subtaskActivity).where(eq(subtaskActivity.subtaskId, site.subtaskId));
      expect(history).toHaveLength(1);
    } finally {
      release();
      await other.close();
      await secondConnection.close();
    }
  });

  it('sends a task for approval once however often the status change is repeated', async () => {
    const own = await insertWork(ctx.app.db, team);
    const key = randomUUID();
    const send = () => callAs(ctx.app, team.member, { method: 'PATCH', url: `/api/subtasks/${own.subtaskId}/`, payload: { status: 'pending_approval', comment: 'Done, photos attached' }, headers: { 'idempotency-key': key } });

    const [first, second] = await Promise.all([send(), send()]);
    const third = await send();

    for (const answer of [first!, second!, third]) expect(answer.statusCode, answer.body).toBe(200);
    expect(third.json()).toEqual(first!.json());
    const history = await ctx.app.db.select({ id: subtaskActivity.id }).from(subtaskActivity).where(eq(subtaskActivity.subtaskId, own.subtaskId));
    expect(history).toHaveLength(1);
  });

  it('keeps one photo when an upload is repeated, its form built again', async () => {
    const key = randomUUID();
    const upload = async () => {
      const form = await photoForm();
      return callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/attachments/`, payload: form.payload, headers: { ...form.headers, 'idempotency-key': key } });
    };

    const first = await upload();
    const second = await upload();

    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());
    const photos = await ctx.app.db.select({ id: subtaskAttachments.id }).from(subtaskAttachments).where(eq(subtaskAttachments.subtaskId, work.subtaskId));
    expect(photos).toHaveLength(1);
  });

  it('refuses the same key with another photo (422) on both photo routes, keeping the first photo only', async () => {
    const site = await insertWork(ctx.app.db, team);
    const routes = [
      { url: `/api/subtasks/${site.subtaskId}/attachments/`, photos: () => ctx.app.db.select({ id: subtaskAttachments.id }).from(subtaskAttachments).where(eq(subtaskAttachments.subtaskId, site.subtaskId)) },
      {
        url: `/api/projects/${site.projectId}/daily-logs/2025-04-01/attachments/`,
        photos: async () => (await callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${site.projectId}/daily-logs/2025-04-01/` })).json().attachments as { id: number }[],
      },
    ];
    for (const route of routes) {
      const key = randomUUID();
      const upload = async (background: string) => {
        const form = await photoForm(background);
        return callAs(ctx.app, team.member, { method: 'POST', url: route.url, payload: form.payload, headers: { ...form.headers, 'idempotency-key': key } });
      };

      const first = await upload('#208040');
      const other = await upload('#c03020');

      expect(first.statusCode, first.body).toBe(201);
      expect(other.statusCode, route.url).toBe(422);
      expect(other.json()).toEqual({ detail: KEY_REUSED });
      expect((await route.photos()).map((photo) => photo.id)).toEqual([first.json().id]);
    }
  });

  it('keeps one photo when the same upload is sent twice at once, both answered with it', async () => {
    const site = await insertWork(ctx.app.db, team);
    const key = randomUUID();
    const upload = async () => {
      const form = await photoForm();
      return callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${site.subtaskId}/attachments/`, payload: form.payload, headers: { ...form.headers, 'idempotency-key': key } });
    };

    const answers = await Promise.all([upload(), upload()]);

    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201]);
    expect(answers[1]!.json()).toEqual(answers[0]!.json());
    expect(answers.filter((answer) => answer.headers[REPLAYED_HEADER] === 'true')).toHaveLength(1);
    const photos = await ctx.app.db.select({ id: subtaskAttachments.id }).from(subtaskAttachments).where(eq(subtaskAttachments.subtaskId, site.subtaskId));
    expect(photos).toHaveLength(1);
  });

  it(`keeps at most ${KEYS_PER_USER} keys a user, forgetting the oldest first`, async () => {
    const crew = await createTeam(ctx.app);
    const site = await insertWork(ctx.app.db, crew);
    // A day's worth of earlier keyed writes, each answered.
    await ctx.app.db.execute(sql`
      insert into idempotency_keys (company_id, user_id, key, fingerprint, status_code, body)
      select ${crew.manager.companyId}, ${crew.manager.id}, 'earlier-' || n, 'earlier', 201, '{}' from generate_series(1, ${KEYS_PER_USER}) n`);
    const keys = async (userId: number) =>
      (await ctx.app.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, userId))).map((row) => row.key);
    const othersBefore = await keys(crew.member.id);

    const created = await createSubtask(ctx, crew.manager, 'newest', { major_task_id: site.majorTaskId, name: 'Past the cap', assigned_to_id: crew.member.id, due_date: '2099-08-01' });

    expect(created.statusCode, created.body).toBe(201);
    const kept = await keys(crew.manager.id);
    expect(kept).toHaveLength(KEYS_PER_USER);
    expect(kept).not.toContain('earlier-1');
    expect(kept).toEqual(expect.arrayContaining(['earlier-2', `earlier-${KEYS_PER_USER}`, 'newest']));
    expect(await keys(crew.member.id)).toEqual(othersBefore);
    const replayed = await createSubtask(ctx, crew.manager, 'newest', { major_task_id: site.majorTaskId, name: 'Past the cap', assigned_to_id: crew.member.id, due_date: '2099-08-01' });
    expect(replayed.headers[REPLAYED_HEADER]).toBe('true');
  });

  it('keeps comments and deletions exactly once too', async () => {
    const key = randomUUID();
    const comment = () => callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/comments/`, payload: { text: 'Rebar delivered' }, headers: { 'idempotency-key': key } });
    const [first, second] = [await comment(), await comment()];
    expect(first.statusCode).toBe(201);
    expect(second.json()).toEqual(first.json());

    const doomed = await insertWork(ctx.app.db, team);
    const deleteKey = randomUUID();
    const remove = () => callAs(ctx.app, team.manager, { method: 'DELETE', url: `/api/major-tasks/${doomed.majorTaskId}/`, headers: { 'idempotency-key': deleteKey } });
    const removed = await remove();
    const again = await remove();
    expect(removed.statusCode).toBe(204);
    expect(again.statusCode).toBe(204);
    expect(again.headers[REPLAYED_HEADER]).toBe('true');
  });

  it('answers a key claimed before fingerprints were an HMAC (a plain SHA-256) with its first answer, for a day after the upgrade', async () => {
    const key = randomUUID();
    const url = `/api/subtasks/${work.subtaskId}/comments/`;
    const comment = (text: string) => callAs(ctx.app, team.member, { method: 'POST', url, payload: { text }, headers: { 'idempotency-key': key } });
    const first = await comment('Sent before the upgrade');
    expect(first.statusCode).toBe(201);
    // As the server before the upgrade kept it.
    const plain = createHash('sha256').update(`POST ${url.replace(/\/$/, '')}\n{"text":"Sent before the upgrade"}`).digest('hex');
    await ctx.app.db.update(idempotencyKeys).set({ fingerprint: plain }).where(eq(idempotencyKeys.key, key));

    const resent = await comment('Sent before the upgrade');
    expect(resent.headers[REPLAYED_HEADER]).toBe('true');
    expect(resent.json()).toEqual(first.json());
    expect((await comment('Another comment')).statusCode).toBe(422);
  });

  it('runs work after a commit: at once outside a transaction, refused inside an open one (it would run before its commit)', async () => {
    const ran: string[] = [];
    await afterCommit(ctx.app.db, async () => void ran.push('committed'));
    expect(ran).toEqual(['committed']);
    await expect(ctx.app.db.transaction((tx) => afterCommit(tx, async () => void ran.push('too early')))).rejects.toThrow(/not the transaction itself/);
    expect(ran).toEqual(['committed']);
  });

  it('keeps no password a plain hash of the request would give away to a guess', async () => {
    const key = randomUUID();
    const password = 'Summer2026!';
    const someone = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
    const url = `/api/users/${someone.id}/password/`;
    const set = await callAs(ctx.app, team.admin, { method: 'POST', url, payload: { password }, headers: { 'idempotency-key': key } });
    expect(set.statusCode).toBe(204);
    const [kept] = await ctx.app.db.select({ fingerprint: idempotencyKeys.fingerprint }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    // Someone with a copy of the database guesses passwords: one SHA-256 of the request per guess.
    const guess = (candidate: string) => createHash('sha256').update(`POST ${url.replace(/\/$/, '')}\n{"password":${JSON.stringify(candidate)}}`).digest('hex');
    expect(['password', 'Winter2026!', password].map(guess)).not.toContain(kept!.fingerprint);
    // A faithful retry still matches, on any instance with the same secret.
    const again = await callAs(ctx.app, team.admin, { method: 'POST', url, payload: { password }, headers: { 'idempotency-key': key } });
    expect(again.headers[REPLAYED_HEADER]).toBe('true');
  });

  it("answers a retry as the first time though the route's guards would now refuse it", async () => {
    const subtask = await insertWork(ctx.app.db, team);
    const key = randomUUID();
    const comment = (text: string, withKey = key) =>
      callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${subtask.subtaskId}/comments/`, payload: { text }, headers: { 'idempotency-key': withKey } });
    const first = await comment('Formwork checked');
    expect(first.statusCode, first.body).toBe(201);
    // The answer was lost; meanwhile the manager gave the subtask to someone else.
    const moved = await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${subtask.subtaskId}/`, payload: { assigned_to_id: team.otherMember.id } });
    expect(moved.statusCode, moved.body).toBe(200);

    const retry = await comment('Formwork checked');
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers[REPLAYED_HEADER]).toBe('true');
    expect(retry.json()).toEqual(first.json());
    // The key does not open the route to anything else: another comment with it, or a new key, is refused.
    expect((await comment('Something else')).statusCode).toBe(422);
    expect((await comment('Formwork checked', randomUUID())).statusCode).toBe(403);
  });

  it("opens no other route's guards: a key used on one route is refused before its body on another", async () => {
    const mine = await insertWork(ctx.app.db, team);
    const key = randomUUID();
    const first = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${mine.subtaskId}/comments/`, payload: { text: 'Rebar tied' }, headers: { 'idempotency-key': key } });
    expect(first.statusCode, first.body).toBe(201);

    // A crew member may not upload drawings: refused before the body is read, with the key or without.
    const upload = { method: 'POST' as const, url: `/api/projects/${mine.projectId}/sheets/`, payload: 'not a form', headers: { 'content-type': 'multipart/form-data; boundary=x' } };
    expect((await callAs(ctx.app, team.member, upload)).statusCode).toBe(403);
    expect((await callAs(ctx.app, team.member, { ...upload, headers: { ...upload.headers, 'idempotency-key': key } })).statusCode).toBe(403);
    // Nor may they comment on someone else's subtask: 403 with the key, not the key's 422.
    const theirs = await insertWork(ctx.app.db, { ...team, member: team.otherMember });
    const other = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${theirs.subtaskId}/comments/`, payload: { text: 'Rebar tied' }, headers: { 'idempotency-key': key } });
    expect(other.statusCode, other.body).toBe(403);
  });

  it('refuses a key that is empty, too long or not printable (400), acting not at all', async () => {
    for (const key of [' ', 'x'.repeat(256), 'tab\there']) {
      const name = `Bad key ${key.length}`;
      const response = await createSubtask(ctx, team.manager, key, { major_task_id: work.majorTaskId, name, assigned_to_id: team.member.id, due_date: '2099-08-01' });
      expect(response.statusCode, JSON.stringify(key)).toBe(400);
      expect(response.json().detail).toBe(KEY_INVALID);
      expect(await subtasksNamed(ctx, name)).toBe(0);
    }
  });

  it('lets a refused request be retried with its key: a refusal is not kept', async () => {
    const key = randomUUID();
    const payload = { major_task_id: work.majorTaskId, name: 'Refused first', assigned_to_id: team.member.id, due_date: '2099-08-01', priority: 'urgent' };
    expect((await createSubtask(ctx, team.manager, key, payload)).statusCode).toBe(400);
    const [row] = await ctx.app.db.select({ count: sql<number>`count(*)::int` }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(row!.count).toBe(0);
  });

  it('keeps a key over a weekend and forgets it after a week', async () => {
    // Sent on a Friday evening as the phone lost its signal, the answer lost; the phone stays off until Monday.
    const key = randomUUID();
    const payload = { major_task_id: work.majorTaskId, name: 'Sent before the weekend', assigned_to_id: team.member.id, due_date: '2099-08-01' };
    const first = await createSubtask(ctx, team.manager, key, payload);
    expect(first.statusCode).toBe(201);
    const stored = () => ctx.app.db.select({ id: idempotencyKeys.id }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

    await sweepIdempotencyKeys(ctx.app.db, new Date(Date.now() + 62 * 3_600_000));
    const monday = await createSubtask(ctx, team.manager, key, payload);
    expect(monday.headers[REPLAYED_HEADER]).toBe('true');
    expect(monday.json().id).toBe(first.json().id);
    expect(await subtasksNamed(ctx, 'Sent before the weekend')).toBe(1);

    await sweepIdempotencyKeys(ctx.app.db, new Date(Date.now() + (7 * 24 - 1) * 3_600_000));
    expect(await stored()).toHaveLength(1);
    await sweepIdempotencyKeys(ctx.app.db, new Date(Date.now() + (7 * 24 + 1) * 3_600_000));
    expect(await stored()).toHaveLength(0);
  });
});
