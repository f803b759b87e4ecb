import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COMPLETED_PROJECT_LOGS_READ_ONLY,
  DAILY_LOG_NOT_SIGNED,
  DAILY_LOG_SIGNED,
  FUTURE_LOG_DATE,
  LOG_ENTRY_EMPTY,
  NOT_LOG_KEEPER,
  NOT_YOUR_LOG_ENTRY,
  NO_WORK_IN_PROJECT,
  RANGE_START_AFTER_END,
  WORK_NOT_OF_THE_DAY,
  shiftDate,
  type Amendment,
  type DailyLog,
  type DailyLogEntry,
  type DailyLogProject,
  type DailyLogSummary,
  type MissingLogs,
  LOG_ENTRY_FOR_DATE_NOT_BEFORE,
  LOG_PHOTO_FOR_DATE_NOT_BEFORE,
} from '@siteboard/shared';
import { subtaskActivity } from '../../schema/activity';
import { dailyLogAttachments, dailyLogs } from '../../schema/daily-logs';
import { projects } from '../../schema/projects';
import { users } from '../../schema/users';
import { NOT_AN_IMAGE } from '../../lib/images';
import { describeEachDatabase } from '../../test/build-app';
import { createUser, loginAs } from '../../test/factories';
import { callAs, createTeam, insertProject, insertSubtask, insertWork, listAs, type Caller, type Team } from '../../test/work-factories';
import { whileStatementRuns } from '../../test/uncommitted';

/** The calendar date at `now` in a time zone, as the project's "today" is computed. */
function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

const logUrl = (projectId: number, date: string, rest = '') => `/api/projects/${projectId}/daily-logs/${date}/${rest}`;

async function photoForm(bytes?: Buffer) {
  const image = bytes ?? (await sharp({ create: { width: 32, height: 24, channels: 3, background: '#4080c0' } }).jpeg().toBuffer());
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(image)], { type: 'image/jpeg' }), 'site.jpg');
  const encoded = new Response(form);
  return { payload: Buffer.from(await encoded.arrayBuffer()), headers: { 'content-type': encoded.headers.get('content-type')! } };
}

/** A complete set of sections, as a manager fills them in the evening. */
const SECTIONS = {
  weather: { conditions: 'Overcast, showers after 14:00', temperature: 12.5, wind: 'SW 25 km/h', precipitation: '4 mm', work_stopped: true },
  crew: [
    { trade: 'Carpenters', company: 'Nordbau GmbH', headcount: 4, hours: 8 },
    { trade: 'Electricians', company: 'Volt & Co', headcount: 2, hours: 6.5 },
  ],
  equipment: [{ name: 'Tower crane TC-2', hours: 6 }],
  deliveries: [{ what: '12 t rebar', from: 'Stahlhandel Süd' }],
  delays: [
    { cause: 'Rain stopped the pour', hours_lost: 2 },
    { cause: 'Late concrete truck', hours_lost: 1.25 },
  ],
  incidents: [{ kind: 'observation', description: 'Missing guard rail on level 3, fixed at once' }],
  visitors: [{ name: 'Dr. Ines Vogel', company: 'Structural engineer', purpose: 'Rebar inspection' }],
  notes: 'Formwork for slab 3 complete.',
};

describeEachDatabase('daily site logs', (ctx) => {
  let team: Team;
  let rival: Team;
  let projectId: number;
  let today: string;

  const get = async (caller: Caller, date: string, project = projectId) => {
    const response = await callAs(ctx.app, caller, { method: 'GET', url: logUrl(project, date) });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as DailyLog;
  };
  const put = (caller: Caller, date: string, payload: unknown, project = projectId) => callAs(ctx.app, caller, { method: 'PUT', url: logUrl(project, date), payload: payload as object });
  const post = (caller: Caller, date: string, rest: string, payload?: unknown, project = projectId) =>
    callAs(ctx.app, caller, { method: 'POST', url: logUrl(project, date, rest), ...(payload === undefined ? {} : { payload: payload as object }) });

  beforeAll(async () => {
    [team, rival] = [await createTeam(ctx.app), await createTeam(ctx.app)];
    ({ projectId } = await insertWork(ctx.app.db, team));
    today = todayIn('UTC');
  });

  describe('the manager’s sections', () => {
    const date = '2025-03-10';

    it('a day nobody opened is an empty draft; PUT opens it with the sections, and a later PUT replaces only what it sends', async () => {
      const empty = await get(team.member, date);
      expect(empty).toMatchObject({ date, status: 'draft', weather: null, crew: [], entries: [], amendments: [], signed_by: null, signed_at: null, crew_headcount: 0, crew_hours: 0, created_at: null });

      const saved = await put(team.manager, date, SECTIONS);
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json()).toMatchObject({ ...SECTIONS, status: 'draft', crew_headcount: 6, crew_hours: 45, hours_lost: 3.25 });

      const again = await put(team.manager, date, { notes: 'Formwork for slab 3 complete; slab 4 started.', delays: [] });
      expect(again.statusCode, again.body).toBe(200);
      const log = await get(team.admin, date);
      expect(log).toMatchObject({ weather: SECTIONS.weather, crew: SECTIONS.crew, delays: [], notes: 'Formwork for slab 3 complete; slab 4 started.', hours_lost: 0 });
      expect(log.created_at).not.toBeNull();
    });

    it('refuses bad sections field by field, in the reader’s language, and writes nothing', async () => {
      const before = await get(team.manager, date);
      const response = await put(team.manager, date, {
        weather: { temperature: 90 },
        crew: [{ trade: ' ', company: 'Nordbau GmbH', headcount: 0, hours: 25 }],
        delays: [{ cause: 'Rain', hours_lost: -1 }],
        notes: 'fine',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({
        'weather.conditions': ['Conditions is required.'],
        'weather.temperature': ['Temperature must be between -70 and 70.'],
        'crew.0.trade': ['Trade is required.'],
        'crew.0.headcount': ['Head count must be between 1 and 1000.'],
        'crew.0.hours': ['Hours must be between 0 and 24.'],
        'delays.0.hours_lost': ['Hours lost must be between 0 and 24.'],
      });
      expect(await get(team.manager, date)).toEqual(before);

      const germanAdmin = await createUser(ctx.app.db, team.company.id, 'admin', { language: 'de' });
      const german = await callAs(ctx.app, { ...germanAdmin, access: (await loginAs(ctx.app, germanAdmin)).access }, { method: 'PUT', url: logUrl(projectId, date), payload: { crew: [{ company: 'X', headcount: 2.5, hours: 8 }] } });
      expect(german.statusCode).toBe(400);
      expect(german.json().errors).toEqual({ 'crew.0.trade': ['Gewerk: Angabe erforderlich.'], 'crew.0.headcount': ['Personen muss eine ganze Zahl sein.'] });
      // A number left empty (the form sends null) is missing, not "not a whole number".
      const empty = await callAs(ctx.app, { ...germanAdmin, access: (await loginAs(ctx.app, germanAdmin)).access }, { method: 'PUT', url: logUrl(projectId, date), payload: { crew: [{ trade: 'Maurer', company: 'X', headcount: null, hours: null }] } });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors).toEqual({ 'crew.0.headcount': ['Personen: Angabe erforderlich.'], 'crew.0.hours': ['Stunden: Angabe erforderlich.'] });
    });

    it('answers a future day with 400, an unreal date with 400, another company’s project with 404', async () => {
      const tomorrow = shiftDate(todayIn('Pacific/Kiritimati'), 1);
      for (const response of [await callAs(ctx.app, team.manager, { method: 'GET', url: logUrl(projectId, tomorrow) }), await put(team.manager, tomorrow, { notes: 'x' })]) {
        expect(response.statusCode).toBe(400);
        expect(response.json().errors).toEqual({ date: [FUTURE_LOG_DATE] });
      }
      expect((await callAs(ctx.app, team.manager, { method: 'GET', url: logUrl(projectId, '2025-02-30') })).json().errors).toEqual({ date: ['Date must be a real calendar date.'] });
      for (const response of [await callAs(ctx.app, rival.admin, { method: 'GET', url: logUrl(projectId, date) }), await put(rival.admin, date, { notes: 'x' })]) {
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('Formwork');
      }
    });

    it('lets only the project’s manager and admins write, before looking at the body', async () => {
      const byMember = await put(team.member, date, { crew: 'not even a list' });
      expect([byMember.statusCode, byMember.json().detail]).toEqual([403, 'You do not have permission to perform this action.']);
      const byOtherManager = await put(team.otherManager, date, { crew: 'not even a list' });
      expect([byOtherManager.statusCode, byOtherManager.json().detail]).toEqual([403, NOT_LOG_KEEPER]);
      expect((await put(team.admin, date, { equipment: [] })).statusCode).toBe(200);
    });
  });

  describe('the day’s work, from the record', () => {
    it('lists what was sent for approval, approved, declined and completed that day in the project, with the photos, who and when', async () => {
      const work = await insertWork(ctx.app.db, team);
      const second = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: team.member.id, assignedById: team.manager.id, name: 'Strip formwork' });
      const third = await insertSubtask(ctx.app.db, { companyId: team.company.id, majorTaskId: work.majorTaskId, assignedToId: team.member.id, assignedById: team.manager.id, name: 'Sweep level 2' });
      const patch = (caller: Caller, id: number, payload: object) => callAs(ctx.app, caller, { method: 'PATCH', url: `/api/subtasks/${id}/`, payload });
      expect((await patch(team.member, work.subtaskId, { status: 'pending_approval', comment: 'Poured and vibrated' })).statusCode).toBe(200);
      expect((await patch(team.manager, work.subtaskId, { status: 'completed' })).statusCode).toBe(200);
      expect((await patch(team.member, second.id, { status: 'pending_approval' })).statusCode).toBe(200);
      expect((await patch(team.manager, second.id, { status: 'ongoing', comment: 'Edges still rough' })).statusCode).toBe(200);
      expect((await patch(team.manager, third.id, { status: 'completed' })).statusCode).toBe(200);
      expect((await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${second.id}/attachments/`, ...(await photoForm()) })).statusCode).toBe(201);
      // A change of another day, and a comment (not the day's work), are left out.
      await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${third.id}/comments/`, payload: { text: 'Swept' } });
      const [old] = await ctx.app.db
        .insert(subtaskActivity)
        .values({ companyId: team.company.id, subtaskId: third.id, actorId: team.member.id, type: 'status_changed', fromStatus: 'ongoing', toStatus: 'pending_approval', createdAt: new Date(Date.now() - 3 * 86_400_000) })
        .returning({ id: subtaskActivity.id });

      const log = await get(team.member, today, work.projectId);
      expect(log.work.map((item) => [item.kind, item.subtask.id, item.actor?.id, item.note])).toEqual([
        ['sent_for_approval', work.subtaskId, team.member.id, 'Poured and vibrated'],
        ['approved', work.subtaskId, team.manager.id, null],
        ['sent_for_approval', second.id, team.member.id, null],
        ['declined', second.id, team.manager.id, 'Edges still rough'],
        ['completed', third.id, team.manager.id, null],
        ['photo', second.id, team.member.id, null],
      ]);
      const photo = log.work.at(-1)!;
      expect(photo.attachment).toMatchObject({ content_type: 'image/jpeg', width: 32, height: 24 });
      expect(log.work.every((item) => !item.excluded && item.manager_comment === null)).toBe(true);
      expect(log.work.map((item) => item.activity_id)).not.toContain(old!.id);

      // The manager leaves one out and comments on another; the record itself stays as it was.
      const [declined, completed] = [log.work[3]!, log.work[4]!];
      const saved = await put(team.manager, today, { work: [{ activity_id: completed.activity_id, excluded: true }, { activity_id: declined.activity_id, comment: 'Redo on Monday' }] }, work.projectId);
      expect(saved.statusCode, saved.body).toBe(200);
      const annotated = (saved.json() as DailyLog).work;
      expect(annotated.find((item) => item.activity_id === completed.activity_id)).toMatchObject({ excluded: true, kind: 'completed' });
      expect(annotated.find((item) => item.activity_id === declined.activity_id)).toMatchObject({ manager_comment: 'Redo on Monday', note: 'Edges still rough' });
      const [record] = await ctx.app.db.select({ text: subtaskActivity.text }).from(subtaskActivity).where(eq(subtaskActivity.id, declined.activity_id));
      expect(record!.text).toBe('Edges still rough');

      // Only entries of the day's work may be named; the refusal changes nothing.
      const refused = await put(team.manager, today, { notes: 'changed', work: [{ activity_id: old!.id, excluded: true }] }, work.projectId);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toEqual({ 'work.0.activity_id': [WORK_NOT_OF_THE_DAY] });
      expect((await get(team.manager, today, work.projectId)).notes).toBe('');
    });

    it('reads the day in the project manager’s time zone, else the company’s', async () => {
      const zoned = await createTeam(ctx.app, { timezone: 'UTC' });
      await ctx.app.db.update(users).set({ timezone: 'Pacific/Kiritimati' }).where(eq(users.id, zoned.manager.id));
      const work = await insertWork(ctx.app.db, zoned);
      // 23:30 UTC on 9 March is 13:30 on 10 March in Kiritimati (UTC+14).
      await ctx.app.db.insert(subtaskActivity).values({
        companyId: zoned.company.id,
        subtaskId: work.subtaskId,
        actorId: zoned.member.id,
        type: 'status_changed',
        fromStatus: 'ongoing',
        toStatus: 'pending_approval',
        createdAt: new Date('2025-03-09T23:30:00Z'),
      });
      expect((await get(zoned.manager, '2025-03-09', work.projectId)).work).toEqual([]);
      expect((await get(zoned.manager, '2025-03-10', work.projectId)).work.map((item) => item.kind)).toEqual(['sent_for_approval']);
      const projectsList = await listAs<DailyLogProject>(ctx.app, zoned.manager, '/api/daily-logs/projects/');
      expect(projectsList.items.find((project) => project.id === work.projectId)!.today).toBe(todayIn('Pacific/Kiritimati'));
    });
  });

  describe('signing and amendments', () => {
    const date = '2025-03-11';

    it('signs the log read-only: who and when; every later write is 409 and changes nothing', async () => {
      expect((await put(team.manager, date, SECTIONS)).statusCode).toBe(200);
      expect((await post(team.member, date, 'entries/', { hours: 7.5, note: 'Fixed formwork' })).statusCode).toBe(201);
      const signed = await post(team.manager, date, 'sign/');
      expect(signed.statusCode, signed.body).toBe(200);
      const log = signed.json() as DailyLog;
      expect(log).toMatchObject({ status: 'signed', signed_by: { id: team.manager.id, email: team.manager.email } });
      expect(Date.now() - Date.parse(log.signed_at!)).toBeLessThan(60_000);

      // Who can amend is told to; the crew, who cannot, what they can do instead.
      const attempts = [
        [await put(team.manager, date, { notes: 'rewritten' }), DAILY_LOG_SIGNED],
        [await put(team.admin, date, { notes: 'rewritten' }), DAILY_LOG_SIGNED],
        [await post(team.manager, date, 'sign/'), DAILY_LOG_SIGNED],
        [await post(team.manager, date, 'entries/', { hours: 2 }), DAILY_LOG_SIGNED],
        [await post(team.member, date, 'entries/', { hours: 1 }), "The manager signed this day's log before your entry arrived. Add it to today's log or tell your manager."],
        [await callAs(ctx.app, team.member, { method: 'POST', url: logUrl(projectId, date, 'attachments/'), ...(await photoForm()) }), "The manager signed this day's log before your entry arrived. Add it to today's log or tell your manager."],
        [
          await callAs(ctx.app, team.member, { method: 'PATCH', url: logUrl(projectId, date, `entries/${log.entries[0]!.id}/`), payload: { hours: 9 } }),
          "The manager signed this day's log before your change arrived. Tell your manager, who can correct it with an amendment.",
        ],
      ] as const;
      for (const [attempt, detail] of attempts) {
        expect(attempt.statusCode, attempt.body).toBe(409);
        expect(attempt.json().detail).toBe(detail);
      }
      expect(await get(team.admin, date)).toEqual(log);

      const germanMember = await createUser(ctx.app.db, team.company.id, 'team_member', { language: 'de' });
      const german = await insertWork(ctx.app.db, { ...team, member: germanMember });
      expect((await post(team.manager, date, 'sign/', undefined, german.projectId)).statusCode).toBe(200);
      const refused = await post({ ...germanMember, access: (await loginAs(ctx.app, germanMember)).access }, date, 'entries/', { hours: 1 }, german.projectId);
      expect([refused.statusCode, refused.json().detail]).toEqual([409, 'Der Bauleiter hat das Bautagebuch dieses Tages unterschrieben, bevor Ihr Eintrag ankam. Tragen Sie ihn ins heutige Bautagebuch ein oder sagen Sie es Ihrem Bauleiter.']);
    });

    it('tells the crew the admin signed when the admin did, in their language', async () => {
      const adminDay = '2025-03-04';
      const entry = await post(team.member, adminDay, 'entries/', { hours: 3 });
      expect(entry.statusCode, entry.body).toBe(201);
      expect((await post(team.admin, adminDay, 'sign/')).statusCode).toBe(200);

      const added = await post(team.member, adminDay, 'entries/', { hours: 1 });
      expect([added.statusCode, added.json().detail]).toEqual([409, "The admin signed this day's log before your entry arrived. Add it to today's log or tell your manager."]);
      const changed = await callAs(ctx.app, team.member, { method: 'PATCH', url: logUrl(projectId, adminDay, `entries/${entry.json().id}/`), payload: { hours: 9 } });
      expect([changed.statusCode, changed.json().detail]).toEqual([409, "The admin signed this day's log before your change arrived. Tell your manager, who can correct it with an amendment."]);
      const spanishMember = await createUser(ctx.app.db, team.company.id, 'team_member', { language: 'es' });
      const spanish = await insertWork(ctx.app.db, { ...team, member: spanishMember });
      expect((await post(team.admin, adminDay, 'sign/', undefined, spanish.projectId)).statusCode).toBe(200);
      const inSpanish = await post({ ...spanishMember, access: (await loginAs(ctx.app, spanishMember)).access }, adminDay, 'entries/', { hours: 1 }, spanish.projectId);
      expect(inSpanish.json().detail).toBe('La administración firmó el diario de este día antes de que llegara tu entrada. Agrégala al diario de hoy o avisa a la persona a cargo de tu obra.');
    });

    /** `write` on a project of its own, which is deleted as `table` gets its row (the embedded database runs the deletion right after the write's commit, PostgreSQL once the log's lock lets it go, before a later read). */
    const whileItsProjectGoes = async (table: string, write: (project: number) => ReturnType<typeof post>) => {
      const work = await insertWork(ctx.app.db, team);
      return whileStatementRuns(ctx.queries, new RegExp(`^insert into "${table}"`), () => ctx.app.db.delete(projects).where(eq(projects.id, work.projectId)), () => write(work.projectId));
    };

    it('answers an entry with what was saved when its project goes just after, not a 404 (both databases)', async () => {
      const entry = await whileItsProjectGoes('daily_log_entries', (project) => post(team.member, date, 'entries/', { hours: 6, note: 'Stripped formwork' }, project));
      expect(entry.statusCode, entry.body).toBe(201);
      expect(entry.json()).toMatchObject({ hours: 6, note: 'Stripped formwork', author: { id: team.member.id } });
    });

    it('answers a changed entry with what was saved when its project goes just after, not a 404 (both databases)', async () => {
      const work = await insertWork(ctx.app.db, team);
      const added = await post(team.member, date, 'entries/', { hours: 6, note: 'Stripped formwork' }, work.projectId);
      expect(added.statusCode, added.body).toBe(201);
      const changed = await whileStatementRuns(
        ctx.queries,
        /^update "daily_log_entries"/,
        () => ctx.app.db.delete(projects).where(eq(projects.id, work.projectId)),
        () => callAs(ctx.app, team.member, { method: 'PATCH', url: logUrl(work.projectId, date, `entries/${added.json().id}/`), payload: { hours: 7.5, note: 'Stripped formwork, bay 2 too' } }),
      );
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ id: added.json().id, hours: 7.5, note: 'Stripped formwork, bay 2 too', author: { id: team.member.id } });
    });

    it('answers a log photo with what was saved when its project goes just after, not a 404 (both databases)', async () => {
      const form = await photoForm();
      const photo = await whileItsProjectGoes('daily_log_attachment_data', (project) => callAs(ctx.app, team.member, { method: 'POST', url: logUrl(project, date, 'attachments/'), ...form }));
      expect(photo.statusCode, photo.body).toBe(201);
      expect(photo.json()).toMatchObject({ content_type: 'image/jpeg', width: 32, height: 24 });
    });

    it('answers an amendment with what was saved when its project goes just after, not a server error (both databases)', async () => {
      const amendment = await whileItsProjectGoes('daily_log_amendments', async (project) => {
        expect((await post(team.manager, date, 'sign/', undefined, project)).statusCode).toBe(200);
        return post(team.manager, date, 'amendments/', { reason: 'Hours were wrong', changes: 'Crew: 7 hours' }, project);
      });
      expect(amendment.statusCode, amendment.body).toBe(201);
      expect(amendment.json()).toMatchObject({ reason: 'Hours were wrong', changes: 'Crew: 7 hours', author: { id: team.manager.id } });
    });

    it('takes amendments only on a signed log, keeps them beside the original, and changes nothing of it', async () => {
      const draftDate = '2025-03-12';
      expect((await put(team.manager, draftDate, { notes: 'draft' })).statusCode).toBe(200);
      const onDraft = await post(team.manager, draftDate, 'amendments/', { reason: 'Typo', changes: 'x' });
      expect(onDraft.statusCode).toBe(409);
      expect(onDraft.json().detail).toBe(DAILY_LOG_NOT_SIGNED);

      const original = await get(team.manager, date);
      const first = await post(team.manager, date, 'amendments/', { reason: 'The concrete truck was 2 hours late, not 1.25', changes: 'Delay "Late concrete truck": 2 hours lost' });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json()).toMatchObject({ reason: 'The concrete truck was 2 hours late, not 1.25', changes: 'Delay "Late concrete truck": 2 hours lost', author: { id: team.manager.id } });
      const corrected = { delays: [{ cause: 'Late concrete truck', hours_lost: 2 }] };
      const second = await post(team.admin, date, 'amendments/', { reason: 'Corrected delays', changes: corrected });
      expect(second.statusCode, second.body).toBe(201);

      const log = await get(team.member, date);
      expect(log.delays).toEqual(SECTIONS.delays);
      expect({ ...log, amendments: [] }).toEqual({ ...original, amendments: [] });
      expect(log.amendments.map((amendment: Amendment) => [amendment.reason, amendment.changes, amendment.author?.id])).toEqual([
        ['The concrete truck was 2 hours late, not 1.25', 'Delay "Late concrete truck": 2 hours lost', team.manager.id],
        ['Corrected delays', corrected, team.admin.id],
      ]);

      const refusals = [
        [await post(team.manager, date, 'amendments/', { changes: 'x' }), 400, { reason: ['Reason is required.'] }],
        [await post(team.manager, date, 'amendments/', { reason: 'Why' }), 400, { changes: ['Say what changed: a text, or the corrected sections.'] }],
        [await post(team.manager, date, 'amendments/', { reason: 'Why', changes: { crew: [{ trade: 'X' }] } }), 400, { 'changes.crew.0.company': ['Company is required.'], 'changes.crew.0.headcount': ['Head count is required.'], 'changes.crew.0.hours': ['Hours is required.'] }],
      ] as const;
      for (const [response, status, errors] of refusals) {
        expect(response.statusCode, response.body).toBe(status);
        expect(response.json().errors).toEqual(errors);
      }
      for (const caller of [team.member, team.otherManager]) expect((await post(caller, date, 'amendments/', { reason: 'Why', changes: 'x' })).statusCode).toBe(403);
      expect((await get(team.member, date)).amendments).toHaveLength(2);
    });

    it('keeps an amendment written in words as those words, even words that read like JSON', async () => {
      const day = '2025-03-05';
      expect((await put(team.manager, day, { notes: 'Pump down' })).statusCode).toBe(200);
      expect((await post(team.manager, day, 'sign/')).statusCode).toBe(200);
      const texts = ['5', 'true', 'null', '[1,2]', '{"pump":"down"}', '1e3'];
      for (const changes of texts) {
        const answer = await post(team.manager, day, 'amendments/', { reason: 'Figures', changes });
        expect(answer.statusCode, answer.body).toBe(201);
        expect(answer.json().changes).toBe(changes);
      }
      const log = await get(team.member, day);
      expect(log.amendments.map((amendment: Amendment) => amendment.changes)).toEqual(texts);
    });

    it('puts work done without a signal on the day it was done, at its time: a photo of yesterday that synced today is yesterday’s', async () => {
      const work = await insertWork(ctx.app.db, team);
      const yesterday = shiftDate(today, -1);
      const taken = `${yesterday}T15:00:00.000Z`;
      const form = await photoForm();
      const sent = await callAs(ctx.app, team.member, { method: 'POST', url: `/api/subtasks/${work.subtaskId}/attachments/`, payload: form.payload, headers: { ...form.headers, 'x-done-at': taken } });
      expect(sent.statusCode, sent.body).toBe(201);
      expect((await get(team.manager, yesterday, work.projectId)).work.map((item) => [item.kind, item.at])).toEqual([['photo', taken]]);
      expect((await get(team.manager, today, work.projectId)).work).toEqual([]);
    });

    it('keeps the day’s work of a signed log as it was signed', async () => {
      const work = await insertWork(ctx.app.db, team);
      await callAs(ctx.app, team.member, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'pending_approval' } });
      const signed = (await post(team.manager, today, 'sign/', undefined, work.projectId)).json() as DailyLog;
      expect(signed.work.map((item) => item.kind)).toEqual(['sent_for_approval']);
      await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'completed' } });
      expect((await get(team.manager, today, work.projectId)).work).toEqual(signed.work);
    });

    it('names the people of a signed log’s work as they are called now, also once they have left', async () => {
      const work = await insertWork(ctx.app.db, team);
      const worker = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id, fullName: 'Kai Old' });
      expect((await callAs(ctx.app, team.manager, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { assigned_to_id: worker.id } })).statusCode).toBe(200);
      const { access } = await loginAs(ctx.app, worker);
      expect((await callAs(ctx.app, { ...worker, access }, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status: 'pending_approval' } })).statusCode).toBe(200);
      const signed = (await post(team.manager, today, 'sign/', undefined, work.projectId)).json() as DailyLog;
      expect(signed.work.map((item) => item.actor)).toEqual([{ id: worker.id, email: worker.email, full_name: 'Kai Old' }]);

      expect((await callAs(ctx.app, team.admin, { method: 'PATCH', url: `/api/users/${worker.id}/`, payload: { full_name: 'Kai Renamed' } })).statusCode).toBe(200);
      expect((await callAs(ctx.app, team.admin, { method: 'DELETE', url: `/api/users/${worker.id}/?reassign_to=${team.member.id}` })).statusCode).toBe(204);
      const read = await get(team.manager, today, work.projectId);
      expect(read.work.map((item) => item.actor)).toEqual([{ id: worker.id, email: worker.email, full_name: 'Kai Renamed' }]);
      expect(read.work.map(({ actor: _, ...item }) => item)).toEqual(signed.work.map(({ actor: _, ...item }) => item));
    });
  });

  describe('crew contributions', () => {
    const date = '2025-03-13';

    it('lets people with work in the project add their own hours and notes, counted in the day’s totals, editable by them until signed', async () => {
      const added = await post(team.member, date, 'entries/', { hours: 8, note: 'Set anchor bolts on grid C' });
      expect(added.statusCode, added.body).toBe(201);
      const entry = added.json() as DailyLogEntry;
      expect(entry).toMatchObject({ author: { id: team.member.id, email: team.member.email }, hours: 8, note: 'Set anchor bolts on grid C' });
      expect((await post(team.member, date, 'entries/', { note: 'Crane idle 10:00-11:00' })).statusCode).toBe(201);
      expect((await put(team.manager, date, { crew: [{ trade: 'Concrete', company: 'Betonwerk', headcount: 3, hours: 8 }] })).statusCode).toBe(200);

      const log = await get(team.manager, date);
      expect(log.entries.map((row) => [row.author.id, row.hours, row.note])).toEqual([
        [team.member.id, 8, 'Set anchor bolts on grid C'],
        [team.member.id, null, 'Crane idle 10:00-11:00'],
      ]);
      expect(log).toMatchObject({ crew_headcount: 4, crew_hours: 32 });

      const changed = await callAs(ctx.app, team.member, { method: 'PATCH', url: logUrl(projectId, date, `entries/${entry.id}/`), payload: { hours: 9.5, note: 'Set anchor bolts on grids C and D' } });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json()).toMatchObject({ hours: 9.5, note: 'Set anchor bolts on grids C and D' });
      const byOthers = await callAs(ctx.app, team.manager, { method: 'PATCH', url: logUrl(projectId, date, `entries/${entry.id}/`), payload: { hours: 1 } });
      expect(byOthers.statusCode).toBe(403);
      expect(byOthers.json().detail).toBe(NOT_YOUR_LOG_ENTRY);
      expect((await callAs(ctx.app, team.member, { method: 'DELETE', url: logUrl(projectId, date, `entries/${log.entries[1]!.id}/`) })).statusCode).toBe(204);
      expect((await get(team.member, date)).entries.map((row) => row.hours)).toEqual([9.5]);
    });

    it('answers a change that a removal overtook with 404, never a failure', async () => {
      for (let round = 0; round < 4; round++) {
        const entry = (await post(team.member, date, 'entries/', { hours: 1, note: `Race ${round}` })).json() as DailyLogEntry;
        const url = logUrl(projectId, date, `entries/${entry.id}/`);
        // The removal sent last: it commits between a change's commit and the change's answer.
        const answers = await Promise.all([
          ...[2, 3, 4, 5].map((hours) => callAs(ctx.app, team.member, { method: 'PATCH', url, payload: { hours } })),
          callAs(ctx.app, team.member, { method: 'DELETE', url }),
        ]);
        const [removed, changed] = [answers.at(-1)!, answers.slice(0, -1)];
        expect(removed.statusCode).toBe(204);
        for (const response of changed) {
          expect([200, 404], response.body).toContain(response.statusCode);
          if (response.statusCode === 404) expect(response.json().detail).toBe('Entry not found.');
        }
      }
      expect((await get(team.member, date)).entries.filter((row) => row.note?.startsWith('Race'))).toEqual([]);
    });

    it('refuses an empty entry, people without work in the project, and other companies', async () => {
      const empty = await post(team.member, date, 'entries/', { note: '  ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors).toEqual({ hours: [LOG_ENTRY_EMPTY] });
      const outsider = await post(team.otherMember, date, 'entries/', { hours: 'eight' });
      expect(outsider.statusCode).toBe(403);
      expect(outsider.json().detail).toBe(NO_WORK_IN_PROJECT);
      expect((await post(team.otherManager, date, 'entries/', { hours: 1 })).statusCode).toBe(403);
      expect((await post(rival.admin, date, 'entries/', { hours: 1 })).statusCode).toBe(404);
      expect((await post(team.member, shiftDate(todayIn('Pacific/Kiritimati'), 1), 'entries/', { hours: 1 })).json().errors).toEqual({ date: [FUTURE_LOG_DATE] });
    });

    it('takes photos as subtask photos are taken: re-encoded, listed, served to the company only, and removable by their author until signed', async () => {
      const uploaded = await callAs(ctx.app, team.member, { method: 'POST', url: logUrl(projectId, date, 'attachments/'), ...(await photoForm()) });
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const photo = uploaded.json();
      expect(photo).toMatchObject({ content_type: 'image/jpeg', width: 32, height: 24, uploaded_by: { id: team.member.id } });
      expect((await get(team.manager, date)).attachments.map((row) => row.id)).toEqual([photo.id]);
      const image = await callAs(ctx.app, team.otherMember, { method: 'GET', url: photo.url });
      expect(image.statusCode).toBe(200);
      expect((await sharp(image.rawPayload).metadata()).width).toBe(32);
      expect((await callAs(ctx.app, rival.admin, { method: 'GET', url: photo.thumbnail_url })).statusCode).toBe(404);

      const broken = await callAs(ctx.app, team.member, { method: 'POST', url: logUrl(projectId, date, 'attachments/'), ...(await photoForm(Buffer.from('not a photo at all'))) });
      expect(broken.statusCode).toBe(400);
      expect(broken.json().detail).toBe(NOT_AN_IMAGE);
      const outsider = await callAs(ctx.app, team.otherMember, { method: 'POST', url: logUrl(projectId, date, 'attachments/'), ...(await photoForm()) });
      expect(outsider.statusCode).toBe(403);
      const [count] = await ctx.app.db.select({ n: sql<number>`count(*)::int` }).from(dailyLogAttachments).where(eq(dailyLogAttachments.companyId, team.company.id));
      expect(count!.n).toBe(1);

      expect((await callAs(ctx.app, team.manager, { method: 'DELETE', url: logUrl(projectId, date, `attachments/${photo.id}/`) })).statusCode).toBe(403);
      expect((await callAs(ctx.app, team.member, { method: 'DELETE', url: logUrl(projectId, date, `attachments/${photo.id}/`) })).statusCode).toBe(204);
      expect((await get(team.manager, date)).attachments).toEqual([]);
    });

    it('keeps the first day an entry moved on from two signed logs was for beside it, its note as written, and refuses a day not before the log’s', async () => {
      const [first, second, open] = ['2025-02-03', '2025-02-04', '2025-02-05'];
      for (const day of [first, second]) {
        expect((await put(team.manager, day, { notes: 'Signed while the crew had no signal' })).statusCode).toBe(200);
        expect((await post(team.manager, day, 'sign/')).statusCode).toBe(200);
      }
      const work = { hours: 7, note: 'Poured footing 4' };
      // Refused for its own day, moved to the next (signed meanwhile too), then moved on: the first day goes with it each time.
      expect((await post(team.member, first, 'entries/', work)).statusCode).toBe(409);
      expect((await post(team.member, second, `entries/?for_date=${first}`, work)).statusCode).toBe(409);
      const moved = await post(team.member, open, `entries/?for_date=${first}`, work);
      expect(moved.statusCode, moved.body).toBe(201);
      expect(moved.json()).toMatchObject({ hours: 7, note: 'Poured footing 4', for_date: first });
      const own = await post(team.member, open, 'entries/', { hours: 1, note: 'Stripped formwork' });
      expect(own.json()).toMatchObject({ for_date: null });
      // A change of the entry keeps the day it was for.
      const changed = await callAs(ctx.app, team.member, { method: 'PATCH', url: logUrl(projectId, open, `entries/${moved.json().id}/`), payload: { hours: 7.5, note: 'Poured footing 4 and 5' } });
      expect(changed.json()).toMatchObject({ for_date: first, note: 'Poured footing 4 and 5' });
      expect((await get(team.manager, open)).entries.map((entry) => [entry.hours, entry.note, entry.for_date])).toEqual([
        [7.5, 'Poured footing 4 and 5', first],
        [1, 'Stripped formwork', null],
      ]);
      for (const day of [first, second]) expect((await get(team.manager, day)).entries).toEqual([]);

      const sameDay = await post(team.member, open, `entries/?for_date=${open}`, work);
      expect(sameDay.statusCode).toBe(400);
      expect(sameDay.json()).toMatchObject({ detail: LOG_ENTRY_FOR_DATE_NOT_BEFORE, errors: { for_date: [LOG_ENTRY_FOR_DATE_NOT_BEFORE] } });
      expect((await post(team.member, open, 'entries/?for_date=2025-02-06', work)).statusCode).toBe(400);
      expect((await post(team.member, open, 'entries/?for_date=yesterday', work)).statusCode).toBe(400);
      // Who may add comes before what they sent: no work in the project is 403, another company's project 404.
      expect((await post(team.otherMember, open, `entries/?for_date=${open}`, work)).statusCode).toBe(403);
      expect((await post(rival.admin, open, 'entries/?for_date=yesterday', work)).statusCode).toBe(404);
      expect((await get(team.manager, open)).entries).toHaveLength(2);
    });

    it('keeps the day a photo moved from a signed log was for, and refuses a day not before the log’s, asking who may first', async () => {
      const form = await photoForm();
      const upload = (caller: Caller, query: string, project = projectId) => callAs(ctx.app, caller, { method: 'POST', url: `${logUrl(project, date, 'attachments/')}${query}`, ...form });
      const moved = await upload(team.member, '?for_date=2025-03-12');
      expect(moved.statusCode, moved.body).toBe(201);
      expect(moved.json()).toMatchObject({ for_date: '2025-03-12' });
      const own = await upload(team.member, '');
      expect(own.json()).toMatchObject({ for_date: null });
      expect((await get(team.manager, date)).attachments.map((photo) => [photo.id, photo.for_date])).toEqual([
        [moved.json().id, '2025-03-12'],
        [own.json().id, null],
      ]);

      const sameDay = await upload(team.member, `?for_date=${date}`);
      expect(sameDay.statusCode).toBe(400);
      expect(sameDay.json()).toMatchObject({ detail: LOG_PHOTO_FOR_DATE_NOT_BEFORE, errors: { for_date: [LOG_PHOTO_FOR_DATE_NOT_BEFORE] } });
      expect((await upload(team.member, '?for_date=2025-03-14')).statusCode).toBe(400);
      expect((await upload(team.member, '?for_date=yesterday')).statusCode).toBe(400);
      // Who may add comes before what they sent: no work in the project is 403, another company's project 404.
      expect((await upload(team.otherMember, `?for_date=${date}`)).statusCode).toBe(403);
      expect((await upload(rival.admin, '?for_date=yesterday')).statusCode).toBe(404);
      expect((await get(team.manager, date)).attachments).toHaveLength(2);

      for (const photo of [moved.json(), own.json()]) {
        expect((await callAs(ctx.app, team.member, { method: 'DELETE', url: logUrl(projectId, date, `attachments/${photo.id}/`) })).statusCode).toBe(204);
      }
    });

    it('keeps a completed project’s logs read-only', async () => {
      const closed = await insertWork(ctx.app.db, team, { projectStatus: 'completed' });
      for (const response of [await put(team.manager, date, { notes: 'late' }, closed.projectId), await post(team.member, date, 'entries/', { hours: 2 }, closed.projectId), await post(team.manager, date, 'sign/', undefined, closed.projectId)]) {
        expect(response.statusCode).toBe(400);
        expect(response.json().detail).toBe(COMPLETED_PROJECT_LOGS_READ_ONLY);
      }
      expect((await get(team.member, date, closed.projectId)).status).toBe('draft');
    });
  });

  describe('lists', () => {
    it('lists a range’s logs oldest first, paged, with status, signer and totals', async () => {
      const list = await listAs<DailyLogSummary>(ctx.app, team.admin, `/api/projects/${projectId}/daily-logs/?from=2025-03-10&to=2025-03-13`);
      expect(list.total).toBe(4);
      expect(list.items.map((log) => [log.date, log.status, log.signed_by?.id ?? null, log.crew_headcount, log.crew_hours])).toEqual([
        ['2025-03-10', 'draft', null, 6, 45],
        ['2025-03-11', 'signed', team.manager.id, 7, 52.5],
        ['2025-03-12', 'draft', null, 0, 0],
        ['2025-03-13', 'draft', null, 4, 33.5],
      ]);
      const page = await listAs<DailyLogSummary>(ctx.app, team.member, `/api/projects/${projectId}/daily-logs/?from=2025-03-10&to=2025-03-13&limit=2&offset=2`);
      expect([page.total, page.items.map((log) => log.date)]).toEqual([4, ['2025-03-12', '2025-03-13']]);

      const refused = await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/projects/${projectId}/daily-logs/?from=2025-03-13&to=2025-03-10` });
      expect(refused.json().errors).toEqual({ from: [RANGE_START_AFTER_END] });
      expect((await callAs(ctx.app, rival.admin, { method: 'GET', url: `/api/projects/${projectId}/daily-logs/` })).statusCode).toBe(404);
    });

    it('reads a log in a bounded number of statements, however much it holds', async () => {
      const date = '2025-03-14';
      const statements = async () => {
        ctx.queries.length = 0;
        await get(team.manager, date);
        return ctx.queries.length;
      };
      await post(team.member, date, 'entries/', { hours: 1 });
      const few = await statements();
      for (let index = 0; index < 5; index++) await post(team.member, date, 'entries/', { hours: 1, note: `Entry ${index}` });
      await callAs(ctx.app, team.member, { method: 'POST', url: logUrl(projectId, date, 'attachments/'), ...(await photoForm()) });
      expect(await statements()).toBe(few);
      expect(few).toBeLessThanOrEqual(7);
    });

    it('lists a manager’s ongoing projects before the planned and the completed ones, each by name', async () => {
      const keeper = await createUser(ctx.app.db, team.company.id, 'manager');
      await Promise.all(
        (
          [
            ['Aardvark Yard', 'planned'],
            ['Beacon Works', 'completed'],
            ['Zephyr Tower', 'ongoing'],
            ['Mill Lane', 'ongoing'],
          ] as const
        ).map(([name, status]) => insertProject(ctx.app.db, team.company.id, { managerId: keeper.id, name, status, startDate: shiftDate(today, -30), endDate: shiftDate(today, 30) })),
      );
      const { access } = await loginAs(ctx.app, keeper);
      const listed = await listAs<DailyLogProject>(ctx.app, { ...keeper, access }, '/api/daily-logs/projects/');
      expect(listed.items.map((project) => project.name)).toEqual(['Mill Lane', 'Zephyr Tower', 'Aardvark Yard', 'Beacon Works']);
    });

    it('shows each their projects with today, and an admin the working days without a signed log', async () => {
      const memberProjects = await listAs<DailyLogProject>(ctx.app, team.member, '/api/daily-logs/projects/?limit=100');
      expect(memberProjects.items.find((project) => project.id === projectId)).toMatchObject({ today, may_keep: false, may_contribute: true });
      const otherMemberProjects = await listAs<DailyLogProject>(ctx.app, team.otherMember, '/api/daily-logs/projects/');
      expect(otherMemberProjects.items.map((project) => project.id)).not.toContain(projectId);
      const managerProjects = await listAs<DailyLogProject>(ctx.app, team.manager, '/api/daily-logs/projects/?limit=100');
      expect(managerProjects.items.find((project) => project.id === projectId)).toMatchObject({ may_keep: true, may_contribute: true });

      // A project of last week: Monday signed, Tuesday a draft, Wednesday to Friday nothing, the weekend not owed.
      const monday = shiftDate(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7) - 7);
      const week = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id, startDate: monday, endDate: shiftDate(monday, 30), name: 'Week project' });
      // Entered in SiteBoard before it started.
      await ctx.app.db.update(projects).set({ createdAt: new Date(`${shiftDate(monday, -3)}T12:00:00Z`) }).where(eq(projects.id, week.id));
      // Entered today, though it started last Monday: only the day whose log someone opened since is owed.
      const entered = await insertProject(ctx.app.db, team.company.id, { managerId: team.manager.id, startDate: monday, endDate: shiftDate(monday, 30), name: 'Entered today' });
      await ctx.app.db.insert(dailyLogs).values({ companyId: team.company.id, projectId: entered.id, logDate: shiftDate(monday, 2) });
      await ctx.app.db.insert(dailyLogs).values([
        { companyId: team.company.id, projectId: week.id, logDate: monday, status: 'signed', signedById: team.manager.id, signedAt: new Date() },
        { companyId: team.company.id, projectId: week.id, logDate: shiftDate(monday, 1) },
        { companyId: team.company.id, projectId: week.id, logDate: shiftDate(monday, 6) },
      ]);
      const missing = await listAs<MissingLogs>(ctx.app, team.admin, '/api/daily-logs/missing/?days=14&limit=100');
      const owed = missing.items.find((item) => item.project.id === week.id)!;
      // Sunday had a log opened: work happened, so it is owed too.
      expect(owed.missing.filter((day) => day < shiftDate(monday, 7))).toEqual([1, 2, 3, 4, 6].map((days) => shiftDate(monday, days)));
      expect(owed.project.manager?.id).toBe(team.manager.id);
      expect(missing.items.find((item) => item.project.id === entered.id)!.missing).toEqual([shiftDate(monday, 2)]);
      expect((await callAs(ctx.app, team.manager, { method: 'GET', url: '/api/daily-logs/missing/' })).statusCode).toBe(403);
      expect((await listAs<MissingLogs>(ctx.app, rival.admin, '/api/daily-logs/missing/')).items.map((item) => item.project.id)).not.toContain(week.id);
    });
  });

});
