import ICAL from 'ical.js';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, describeEachDatabase, TEST_JWT_SECRET, type TestContext } from '../../test/build-app';
import { callAs, createTeam, insertMajorTask, insertProject, insertSubtask, type Caller, type Team } from '../../test/work-factories';
import { feedKey, feedToken } from './calendar.rules';

const FEED = '/api/calendar-feed/';

interface FeedEvent {
  uid: string;
  summary: string;
  start: string;
  end: string;
  allDay: boolean;
  description: string;
  url: string;
}

/** The feed as a calendar app reads it: parsed by an iCalendar library, not by this test's own reading. */
function parseFeed(text: string): { timezone: string; events: FeedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toString(),
      end: event.endDate.toString(),
      allDay: event.startDate.isDate,
      description: event.description,
      url: String(component.getFirstPropertyValue('url')),
    };
  });
  return { timezone: String(calendar.getFirstPropertyValue('x-wr-timezone')), events };
}

/** The UTC date this many days from now: near enough to today for every feed's window. */
const fromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** The path of an absolute feed URL, to call it on the app under test. */
const pathOf = (url: string) => new URL(url).pathname;

async function turnOn(ctx: TestContext, caller: Caller, body?: object) {
  const response = await callAs(ctx.app, caller, { method: 'POST', url: FEED, payload: body });
  expect([200, 201], response.body).toContain(response.statusCode);
  return response.json() as { url: string; include_team_approvals: boolean };
}

async function readFeedAt(ctx: TestContext, url: string, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: 'GET', url: pathOf(url), headers });
}

/** One subtask's event as a calendar app reads it, by the library's own reading of the feed. */
async function eventOf(ctx: TestContext, url: string, subtaskId: number) {
  const calendar = new ICAL.Component(ICAL.parse((await readFeedAt(ctx, url)).body));
  return calendar.getAllSubcomponents('vevent').find((component) => component.getFirstPropertyValue('uid') === `subtask-${subtaskId}@siteboard`)!;
}

async function eventsAt(ctx: TestContext, url: string) {
  const response = await readFeedAt(ctx, url);
  expect(response.statusCode, response.body).toBe(200);
  return parseFeed(response.body);
}

describeEachDatabase('calendar feed API', (ctx) => {
  let team: Team;
  let rival: Team;
  let work: Record<string, number>;
  let names: Record<string, string>;

  beforeAll(async () => {
    team = await createTeam(ctx.app, { timezone: 'Pacific/Kiritimati' });
    rival = await createTeam(ctx.app);
    const db = ctx.app.db;
    const companyId = team.company.id;
    const managed = await insertProject(db, companyId, { managerId: team.manager.id, name: 'Harbour Bridge' });
    const managedTask = await insertMajorTask(db, companyId, managed.id, { name: 'Deck' });
    const othersProject = await insertProject(db, companyId, { managerId: team.otherManager.id, name: 'Tunnel' });
    const othersTask = await insertMajorTask(db, companyId, othersProject.id, { name: 'Bore' });
    const finished = await insertProject(db, companyId, { managerId: team.manager.id, status: 'completed' });
    const finishedTask = await insertMajorTask(db, companyId, finished.id);
    const add = async (key: string, values: Omit<Parameters<typeof insertSubtask>[1], 'companyId'>) => {
      const name = `${key} =1+1`;
      return [key, (await insertSubtask(db, { companyId, name, ...values })).id, name] as const;
    };
    const rows = await Promise.all([
      add('memberOngoing', { majorTaskId: managedTask.id, assignedToId: team.member.id, assignedById: team.manager.id, dueDate: fromToday(2) }),
      add('memberPending', { majorTaskId: othersTask.id, assignedToId: team.member.id, assignedById: team.otherManager.id, dueDate: fromToday(3), status: 'pending_approval' }),
      add('memberCompleted', { majorTaskId: managedTask.id, assignedToId: team.member.id, assignedById: team.manager.id, status: 'completed' }),
      add('memberUndated', { majorTaskId: managedTask.id, assignedToId: team.member.id, assignedById: team.manager.id, dueDate: null }),
      add('memberInCompletedProject', { majorTaskId: finishedTask.id, assignedToId: team.member.id, assignedById: team.manager.id }),
      add('otherMembers', { majorTaskId: managedTask.id, assignedToId: team.otherMember.id, assignedById: team.otherManager.id }),
      // Waiting for the manager: in their project; assigned by them in another's; neither.
      add('pendingInManagersProject', { majorTaskId: managedTask.id, assignedToId: team.otherMember.id, assignedById: team.otherManager.id, status: 'pending_approval', dueDate: fromToday(4) }),
      add('pendingAssignedByManager', { majorTaskId: othersTask.id, assignedToId: team.otherMember.id, assignedById: team.manager.id, status: 'pending_approval', dueDate: fromToday(5) }),
      add('pendingOfOthers', { majorTaskId: othersTask.id, assignedToId: team.otherMember.id, assignedById: team.otherManager.id, status: 'pending_approval' }),
      add('managersOwn', { majorTaskId: othersTask.id, assignedToId: team.manager.id, assignedById: team.otherManager.id, dueDate: fromToday(6) }),
    ]);
    work = Object.fromEntries(rows.map(([key, id]) => [key, id]));
    names = Object.fromEntries(rows.map(([key, , name]) => [key, name]));
    const rivalProject = await insertProject(db, rival.company.id, { managerId: rival.manager.id });
    const rivalTask = await insertMajorTask(db, rival.company.id, rivalProject.id);
    await insertSubtask(db, { companyId: rival.company.id, majorTaskId: rivalTask.id, assignedToId: rival.member.id, assignedById: rival.manager.id, dueDate: fromToday(10) });
  });

  it('is off until turned on: an answer with no URL, not an error', async () => {
    const response = await callAs(ctx.app, team.otherMember, { method: 'GET', url: FEED });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ url: null, include_team_approvals: false });
  });

  it('turns on with an absolute secret URL that the owner can read back, and holds only their own open work', async () => {
    const response = await callAs(ctx.app, team.member, { method: 'POST', url: FEED, headers: { host: 'siteboard.example:8443' } });
    expect(response.statusCode).toBe(201);
    const feed = response.json();
    expect(feed).toEqual({ url: expect.stringMatching(/^http:\/\/siteboard\.example:8443\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/), include_team_approvals: false });
    const again = await callAs(ctx.app, team.member, { method: 'GET', url: FEED, headers: { host: 'siteboard.example:8443' } });
    expect(again.json()).toEqual(feed);

    // The calendar app reaches the server by the same host: the links in the feed point there.
    const response2 = await readFeedAt(ctx, feed.url, { host: 'siteboard.example:8443' });
    expect(response2.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const { timezone, events } = parseFeed(response2.body);
    // The owner's zone; the company's until users have their own.
    expect(timezone).toBe('Pacific/Kiritimati');
    expect(events.map((event) => event.uid).sort()).toEqual([`subtask-${work.memberOngoing}@siteboard`, `subtask-${work.memberPending}@siteboard`].sort());
    const ongoing = events.find((event) => event.uid === `subtask-${work.memberOngoing}@siteboard`)!;
    expect(ongoing).toEqual({
      uid: `subtask-${work.memberOngoing}@siteboard`,
      summary: names.memberOngoing,
      start: fromToday(2),
      end: fromToday(3),
      allDay: true,
      description: `Harbour Bridge › Deck\nStatus: ongoing\nhttp://siteboard.example:8443/team-member/my-tasks?subtask=${work.memberOngoing}`,
      url: `http://siteboard.example:8443/team-member/my-tasks?subtask=${work.memberOngoing}`,
    });
    expect(events.find((event) => event.uid === `subtask-${work.memberPending}@siteboard`)!.description).toContain('Tunnel › Bore\nStatus: waiting for approval');
  });

  it('adds the approvals a manager decides on only when they ask for them', async () => {
    const without = await turnOn(ctx, team.manager);
    expect(without.include_team_approvals).toBe(false);
    expect((await eventsAt(ctx, without.url)).events.map((event) => event.summary)).toEqual([names.managersOwn]);

    const changed = await callAs(ctx.app, team.manager, { method: 'PATCH', url: FEED, payload: { include_team_approvals: true } });
    expect(changed.statusCode).toBe(200);
    // Changing what it holds keeps the URL the calendar app subscribed to.
    expect(changed.json()).toEqual({ url: without.url, include_team_approvals: true });
    const { events } = await eventsAt(ctx, without.url);
    expect(events.map((event) => event.summary)).toEqual([`Approve: ${names.pendingInManagersProject}`, `Approve: ${names.pendingAssignedByManager}`, names.managersOwn]);
    expect(events[0]!.description).toBe(
      `Harbour Bridge › Deck\nStatus: waiting for approval\nAssigned to ${team.otherMember.email}\nhttp://localhost:80/manager/my-tasks?subtask=${work.pendingInManagersProject}`,
    );
  });

  it("speaks the owner's language and keeps to the owner's own time zone; the ETag changes with them", async () => {
    const feed = await turnOn(ctx, team.manager);
    const english = await ctx.app.inject({ method: 'GET', url: new URL(feed.url).pathname });
    const profile = (payload: object) => callAs(ctx.app, team.manager, { method: 'PATCH', url: '/api/profile/', payload });
    expect((await profile({ language: 'de', timezone: 'Pacific/Pago_Pago' })).statusCode).toBe(200);
    try {
      expect(english.headers['content-language']).toBe('en');
      // A calendar app's own language does not change the owner's feed.
      const german = await ctx.app.inject({ method: 'GET', url: new URL(feed.url).pathname, headers: { 'if-none-match': english.headers.etag as string, 'accept-language': 'fr' } });
      expect(german.statusCode).toBe(200);
      expect(german.headers['content-language']).toBe('de');
      expect(german.body).toContain('X-WR-CALNAME:SiteBoard-Aufgaben');
      expect(german.body).toContain('X-WR-TIMEZONE:Pacific/Pago_Pago');
      // A calendar's own properties come before its first event (RFC 5545): some apps read them only there.
      expect(german.body.indexOf('X-WR-TIMEZONE:')).toBeLessThan(german.body.indexOf('BEGIN:VEVENT'));
      const { events } = await eventsAt(ctx, feed.url);
      expect(events.map((event) => event.summary)).toEqual([`Abnehmen: ${names.pendingInManagersProject}`, `Abnehmen: ${names.pendingAssignedByManager}`, names.managersOwn]);
      expect(events[0]!.description).toContain(`Status: zur Abnahme\nZuständig: ${team.otherMember.email}\n`);
    } finally {
      expect((await profile({ language: 'en', timezone: null })).statusCode).toBe(200);
    }
  });

  it('refuses the approvals option to anyone but a manager, and changes nothing', async () => {
    for (const caller of [team.member, team.admin]) {
      const before = await callAs(ctx.app, caller, { method: 'GET', url: FEED });
      const response = await callAs(ctx.app, caller, { method: 'POST', url: FEED, payload: { include_team_approvals: true } });
      expect(response.statusCode).toBe(403);
      expect(response.json().detail).toBe('Only managers can add the subtasks waiting for their approval to their calendar feed.');
      const after = await callAs(ctx.app, caller, { method: 'GET', url: FEED });
      expect(after.statusCode).toBe(before.statusCode);
      expect(after.body).toBe(before.body);
    }
    expect((await callAs(ctx.app, team.member, { method: 'POST', url: FEED, payload: { include_team_approvals: 'yes' } })).statusCode).toBe(400);
  });

  it('gives the feed a new URL on request: the old one answers 404 at once', async () => {
    const first = await turnOn(ctx, team.otherManager);
    const second = await callAs(ctx.app, team.otherManager, { method: 'POST', url: FEED });
    expect(second.statusCode).toBe(200);
    expect(second.json().url).not.toBe(first.url);
    expect((await readFeedAt(ctx, first.url)).statusCode).toBe(404);
    expect((await readFeedAt(ctx, second.json().url)).statusCode).toBe(200);
  });

  it('keeps no feed URL with an Idempotency-Key: a request sent twice gets the URL that works', async () => {
    const headers = { 'idempotency-key': `feed-${team.otherMember.id}` };
    const first = await callAs(ctx.app, team.otherMember, { method: 'POST', url: FEED, headers });
    const again = await callAs(ctx.app, team.otherMember, { method: 'POST', url: FEED, headers });
    expect([first.statusCode, again.statusCode]).toEqual([201, 200]);
    expect((await readFeedAt(ctx, again.json().url)).statusCode).toBe(200);
    const token = new URL(again.json().url).pathname.split('/').pop()!.replace('.ics', '');
    const kept = await ctx.app.db.execute(sql`select count(*)::int as count from idempotency_keys where key = ${headers['idempotency-key']} or body like ${`%${token}%`}`);
    expect((kept as unknown as { rows: { count: number }[] }).rows[0]!.count).toBe(0);
    expect((await callAs(ctx.app, team.otherMember, { method: 'DELETE', url: FEED, headers })).statusCode).toBe(204);
    expect((await callAs(ctx.app, team.otherMember, { method: 'DELETE', url: FEED, headers })).statusCode).toBe(204);
  });

  it('answers 304 to a calendar that already has the current feed, and the new feed once the work changes', async () => {
    const feed = await turnOn(ctx, team.otherMember);
    const first = await readFeedAt(ctx, feed.url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');

    ctx.queries.length = 0;
    const unchanged = await readFeedAt(ctx, feed.url, { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    expect(ctx.queries).toHaveLength(1);

    const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
    const majorTask = await insertMajorTask(ctx.app.db, team.company.id, project.id);
    await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: majorTask.id, assignedToId: team.otherMember.id, name: 'Paint the railings', dueDate: fromToday(25) });
    const changed = await readFeedAt(ctx, feed.url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(parseFeed(changed.body).events.map((event) => event.summary)).toContain('Paint the railings');
  });

  it('raises the event\'s SEQUENCE and LAST-MODIFIED when a rename or a new due date changes what a calendar shows', async () => {
    const feed = await turnOn(ctx, team.otherMember);
    const project = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id });
    const majorTask = await insertMajorTask(ctx.app.db, team.company.id, project.id);
    const { id } = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: majorTask.id, assignedToId: team.otherMember.id, assignedById: team.manager.id, name: 'Seal the joints', dueDate: fromToday(21) });
    /** The event as a calendar app reads it: its revision, its last change and its stamp. */
    const revision = async () => {
      const event = await eventOf(ctx, feed.url, id);
      return {
        summary: String(event.getFirstPropertyValue('summary')),
        sequence: Number(event.getFirstPropertyValue('sequence') ?? 0),
        lastModified: String(event.getFirstPropertyValue('last-modified')),
        stamp: String(event.getFirstPropertyValue('dtstamp')),
      };
    };
    const edit = async (payload: object) => expect((await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${id}/`, payload })).statusCode).toBe(200);

    // Made an hour ago: the calendar app has had it since.
    await ctx.app.db.execute(sql`update subtasks set changed_at = changed_at - interval '1 hour' where id = ${id}`);
    const created = await revision();
    expect(created.sequence).toBe(0);
    await edit({ name: 'Seal the expansion joints' });
    const renamed = await revision();
    expect(renamed).toMatchObject({ summary: 'Seal the expansion joints', sequence: 1 });
    expect(new Date(renamed.lastModified).getTime()).toBeGreaterThan(new Date(created.lastModified).getTime());
    expect(renamed.stamp).toBe(renamed.lastModified);
    await edit({ due_date: fromToday(23) });
    expect((await revision()).sequence).toBe(2);
    // A change no calendar shows keeps the revision.
    await edit({ priority: 'high' });
    expect((await revision()).sequence).toBe(2);
  });

  it("holds the work due from 90 days before to a year after the owner's today, at most 2,000 events, the soonest due first", async () => {
    const crew = await createTeam(ctx.app, { timezone: 'Pacific/Kiritimati' });
    const feed = await turnOn(ctx, crew.manager, { include_team_approvals: true });
    const project = await insertProject(ctx.app.db, crew.company.id, { managerId: crew.manager.id });
    const majorTask = await insertMajorTask(ctx.app.db, crew.company.id, project.id);
    // The owner's today is theirs (a day ahead of UTC's for half of every day in Kiritimati).
    const read = await ctx.app.db.execute(sql`select (timezone('Pacific/Kiritimati', now()))::date::text as today`);
    const { today } = (read as unknown as { rows: { today: string }[] }).rows[0]!;
    const day = (offset: number) => new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
    const add = async (name: string, offset: number, status: 'ongoing' | 'pending_approval' = 'ongoing', assignedToId = crew.manager.id) =>
      insertSubtask(ctx.app.db, { companyId: crew.company.id, majorTaskId: majorTask.id, assignedToId, assignedById: crew.manager.id, name, dueDate: day(offset), status });
    for (const [name, offset] of [['Too old', -91], ['Oldest shown', -90], ['Latest shown', 365], ['Too far', 366]] as const) await add(name, offset);
    await add('Approval too old', -91, 'pending_approval', crew.member.id);
    await add('Approval shown', -90, 'pending_approval', crew.member.id);
    const summaries = async () => (await eventsAt(ctx, feed.url)).events.map((event) => event.summary);
    expect(await summaries()).toEqual(['Oldest shown', 'Approve: Approval shown', 'Latest shown']);

    // A feed past its size keeps the soonest due: what is furthest ahead waits for a later poll.
    await ctx.app.db.execute(sql`insert into subtasks (company_id, major_task_id, assigned_to_id, assigned_by_id, name, due_date)
      select ${crew.company.id}, ${majorTask.id}, ${crew.manager.id}, ${crew.manager.id}, 'Bulk ' || n, ${day(30)}::date from generate_series(1, 1998) n`);
    // Read as text: parsing 2,000 events takes a calendar library seconds.
    const text = (await readFeedAt(ctx, feed.url)).body;
    const shown = [...text.matchAll(/^SUMMARY:(.*)\r$/gm)].map((match) => match[1]);
    expect(shown).toHaveLength(2000);
    expect(shown.slice(0, 2)).toEqual(['Oldest shown', 'Approve: Approval shown']);
    expect(shown).not.toContain('Latest shown');
  });

  it("names the assignee, and raises the event's revision when its project, major task or assignee is renamed, not when a name stays", async () => {
    const crew = await createTeam(ctx.app);
    const feed = await turnOn(ctx, crew.manager, { include_team_approvals: true });
    const asAdmin = (url: string, payload: object) => callAs(ctx.app, crew.admin, { method: 'PATCH', url, payload });
    const rename = async (url: string, payload: object) => expect((await asAdmin(url, payload)).statusCode).toBe(200);
    const person = `/api/users/${crew.member.id}/`;
    await rename(person, { full_name: 'Carla Nguyen' });
    const project = await insertProject(ctx.app.db, crew.company.id, { managerId: crew.manager.id, name: 'Harbour Bridge' });
    const majorTask = await insertMajorTask(ctx.app.db, crew.company.id, project.id, { name: 'Deck' });
    const { id } = await insertSubtask(ctx.app.db, { companyId: crew.company.id, majorTaskId: majorTask.id, assignedToId: crew.member.id, assignedById: crew.manager.id, name: 'Seal the joints', dueDate: fromToday(21), status: 'pending_approval' });
    /** The event as the manager's calendar app reads it. */
    const revision = async () => {
      const event = await eventOf(ctx, feed.url, id);
      return {
        description: String(event.getFirstPropertyValue('description')),
        sequence: Number(event.getFirstPropertyValue('sequence') ?? 0),
        lastModified: new Date(String(event.getFirstPropertyValue('last-modified'))).getTime(),
      };
    };
    /** The calendar app has had the event for an hour (LAST-MODIFIED counts whole seconds); as it reads it now. */
    const anHourLater = async () => {
      await ctx.app.db.execute(sql`update subtasks set changed_at = changed_at - interval '1 hour' where id = ${id}`);
      return revision();
    };

    expect((await revision()).description).toBe(`Harbour Bridge › Deck\nStatus: waiting for approval\nAssigned to Carla Nguyen\nhttp://localhost:80/manager/my-tasks?subtask=${id}`);
    let last = await anHourLater();
    const renames: [string, object, string][] = [
      [`/api/projects/${project.id}/`, { name: 'Harbour Bridge North' }, 'Harbour Bridge North › Deck\n'],
      [`/api/major-tasks/${majorTask.id}/`, { name: 'Deck East' }, 'Harbour Bridge North › Deck East\n'],
      [person, { full_name: 'Carla Nguyen-Ruiz' }, '\nAssigned to Carla Nguyen-Ruiz\n'],
    ];
    for (const [url, payload, shown] of renames) {
      await rename(url, payload);
      const now = await revision();
      expect(now.description, url).toContain(shown);
      expect(now.sequence, url).toBe(last.sequence + 1);
      expect(now.lastModified, url).toBeGreaterThan(last.lastModified);
      last = await anHourLater();
    }
    // The same names again: the event shows nothing new, so its revision stays.
    for (const [url, payload] of renames) {
      await rename(url, payload);
      expect(await revision(), url).toEqual(last);
    }
  });

  it('turns off with 204: the URL answers 404, and the owner sees it off', async () => {
    const caller = rival.otherMember;
    const feed = await turnOn(ctx, caller);
    const off = await callAs(ctx.app, caller, { method: 'DELETE', url: FEED });
    expect(off.statusCode).toBe(204);
    expect((await readFeedAt(ctx, feed.url)).statusCode).toBe(404);
    expect((await callAs(ctx.app, caller, { method: 'GET', url: FEED })).json()).toEqual({ url: null, include_team_approvals: false });
    const change = await callAs(ctx.app, caller, { method: 'PATCH', url: FEED, payload: { include_team_approvals: false } });
    expect(change.statusCode).toBe(404);
    expect(change.json().detail).toBe('Your calendar feed is off.');
  });

  it('answers 404 to unknown, malformed and forged tokens', async () => {
    const feed = await turnOn(ctx, rival.member);
    const token = pathOf(feed.url).slice('/api/calendar/'.length, -'.ics'.length);
    const forged = [
      `/api/calendar/${'A'.repeat(43)}.ics`,
      `/api/calendar/${token}`,
      `/api/calendar/${token}x.ics`,
      `/api/calendar/${token}.ics.ics`,
      '/api/calendar/..%2F..%2Fetc.ics',
      // What a server with another secret would derive for the same feed.
      `/api/calendar/${feedToken(feedKey('another-secret-that-is-long-enough-to-sign'), rival.member.id, 'nonce')}.ics`,
    ];
    for (const url of forged) expect((await ctx.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    // Another company's feed holds none of this company's work.
    const { events } = await eventsAt(ctx, feed.url);
    expect(events).toHaveLength(1);
    expect(events.some((event) => Object.values(names).includes(event.summary))).toBe(false);
  });

  it('dies with its user, and with its company', async () => {
    const doomed = await createTeam(ctx.app);
    const memberFeed = await turnOn(ctx, doomed.member);
    const managerFeed = await turnOn(ctx, doomed.otherManager);
    expect((await callAs(ctx.app, doomed.admin, { method: 'DELETE', url: `/api/users/${doomed.member.id}/` })).statusCode).toBe(204);
    expect((await readFeedAt(ctx, memberFeed.url)).statusCode).toBe(404);
    expect((await readFeedAt(ctx, managerFeed.url)).statusCode).toBe(200);
    await ctx.app.db.execute(sql`delete from companies where id = ${doomed.company.id}`);
    expect((await readFeedAt(ctx, managerFeed.url)).statusCode).toBe(404);
  });

  it('needs a signed-in user to turn a feed on', async () => {
    expect((await ctx.app.inject({ method: 'POST', url: FEED })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: FEED })).statusCode).toBe(401);
  });

  it('keeps the token out of request logs', async () => {
    const feed = await turnOn(ctx, rival.manager);
    const token = pathOf(feed.url).slice('/api/calendar/'.length, -'.ics'.length);
    const lines: string[] = [];
    const logged = await buildTestApp({ database: ctx.database, jwtSecret: TEST_JWT_SECRET, logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } } });
    try {
      expect((await logged.inject({ method: 'GET', url: pathOf(feed.url) })).statusCode).toBe(200);
      const log = lines.join('');
      expect(log).toContain('/api/calendar/[redacted]');
      expect(log).not.toContain(token);
    } finally {
      await logged.close();
    }
  });

  it('takes its URL and its links from PUBLIC_URL where it is set, whatever Host the request names', async () => {
    const configured = await buildTestApp({ database: ctx.database, jwtSecret: TEST_JWT_SECRET, publicUrl: 'https://tasks.example.com/siteboard' });
    try {
      const response = await configured.inject({ method: 'POST', url: FEED, headers: { host: 'attacker.example', authorization: `Bearer ${team.member.access}` } });
      const url = response.json().url as string;
      expect(url).toMatch(/^https:\/\/tasks\.example\.com\/siteboard\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
      const read = await configured.inject({ method: 'GET', url: pathOf(url).replace('/siteboard', ''), headers: { host: 'attacker.example' } });
      const { events } = parseFeed(read.body);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) {
        expect(event.url).toMatch(/^https:\/\/tasks\.example\.com\/siteboard\/team-member\/my-tasks\?subtask=\d+$/);
        expect(event.description).not.toContain('attacker.example');
      }
    } finally {
      await configured.close();
    }
  });

  describe('behind a proxy', () => {
    it('builds the URL from X-Forwarded-Proto and -Host only when TRUST_PROXY says the proxy may be believed', async () => {
      const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'tasks.example.com' };
      const direct = await callAs(ctx.app, team.manager, { method: 'GET', url: FEED, headers: { host: 'internal:3000', ...forwarded } });
      expect(direct.json().url).toMatch(/^http:\/\/internal:3000\/api\/calendar\//);

      const proxied = await buildTestApp({ database: ctx.database, jwtSecret: TEST_JWT_SECRET, trustProxy: true });
      try {
        const response = await proxied.inject({ method: 'GET', url: FEED, headers: { host: 'internal:3000', authorization: `Bearer ${team.manager.access}`, ...forwarded } });
        const url = response.json().url as string;
        expect(url).toMatch(/^https:\/\/tasks\.example\.com\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
        expect(pathOf(url)).toBe(pathOf(direct.json().url));
      } finally {
        await proxied.close();
      }
    });
  });
});
