import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { createCompany, createUser, injectAs, loginAs, unique } from '../../test/factories';
import { readPdf } from '../../test/pdf-text';
import { callAs, createTeam, insertWork, type Caller, type Team } from '../../test/work-factories';
import { assignSubtasks, dateIn, referenceSubtasks, shiftDays, type PlannedSubtask } from './reports.fixture';

const ZONE = 'Pacific/Kiritimati';
const PDF = '/api/generate-appraisal-pdf/';

/** Each page's text as a reader's copy-paste would give it. */
const pageTexts = async (pdf: Buffer) => (await readPdf(pdf)).pages;

async function download(ctx: TestContext, caller: Caller, query: Record<string, string | number>) {
  const response = await callAs(ctx.app, caller, { method: 'GET', url: `${PDF}?${new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]))}` });
  expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
  return response;
}

describeEachDatabase('appraisal report PDF', (ctx) => {
  let team: Team;
  let today: string;

  beforeAll(async () => {
    team = await createTeam(ctx.app, { timezone: ZONE });
    today = dateIn(ZONE);
    await assignSubtasks(ctx.app.db, team.company.id, team.member.id, referenceSubtasks(today), { project: 'Harbour Bridge', majorTask: 'Deck pour' });
  });

  it('is a PDF download named appraisal_report.pdf', async () => {
    const response = await download(ctx, team.admin, { user_id: team.member.id });

    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe('attachment; filename="appraisal_report.pdf"');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(response.rawPayload.subarray(-6).toString('latin1')).toContain('%%EOF');
  });

  it('names the company, the person and the period, and shows every count and the efficiency', async () => {
    const pages = await pageTexts((await download(ctx, team.admin, { user_id: team.member.id })).rawPayload);
    const first = pages[0]!;
    const all = pages.join(' ');

    expect(first).toContain('Appraisal Report');
    expect(first).toContain(team.company.name);
    expect(first).toContain(team.member.email);
    expect(first).toMatch(/TM-\d{4}/);
    expect(first).toContain('Team Member');
    expect(first).toContain('All time');
    expect(first).toContain(ZONE);
    // The chart's legend, in drawing order: each label followed by its count.
    expect(first).toContain('Total tasks 8 Completed 3 Ongoing 3 Pending Approval 2 Overdue 2');
    // The bars carry their values too.
    expect(first).toMatch(/3 Completed 3 Ongoing 2 Pending Approval 2 Overdue/);
    expect(first).toContain('38%');
    expect(first).toContain('3 of 8 tasks completed');
    // Straight-written subtasks have no history of decisions: the approval record says so.
    expect(first.replace(/\s/g, '')).toContain('ApprovalRecordON-TIMECOMPLETIONN/AAPPROVEDTHEFIRSTTIMEN/ADECLINESRECEIVED0MEDIANTODECISIONN/A');
    expect(first).toContain('Subtasks (8)');
    for (const subtask of referenceSubtasks(today)) expect(all).toContain(subtask.name);
    expect(first).toContain('Harbour Bridge');
    expect(first).toContain(`Page 1 of ${pages.length}`);
    // Nothing is cut short, "Pending Approval" in its narrow column neither.
    expect(first).not.toMatch(/…|\.\.\./);
  });

  it('reports on the range, and lists only the subtasks due in it', async () => {
    const start = shiftDays(today, -3);
    const end = shiftDays(today, 1);
    const text = (await pageTexts((await download(ctx, team.admin, { user_id: team.member.id, start_date: start, end_date: end })).rawPayload)).join(' ');

    expect(text).toContain(`${start} to ${end}`);
    expect(text).toContain('Total tasks 5 Completed 1 Ongoing 2 Pending Approval 2 Overdue 2');
    expect(text).toContain('20%');
    expect(text).toContain('Subtasks (5)');
    expect(text).toContain('Completed three days ago');
    expect(text).not.toContain('Completed long ago');
    expect(text).not.toContain('Ongoing, undated');
  });

  it('prints long project, task and subtask names whole, on as many lines as they take', async () => {
    const person = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
    const long = { project: 'Northgate School Extension, Block B and sports hall', majorTask: 'Roof waterproofing and drainage of the east wing' };
    await assignSubtasks(ctx.app.db, team.company.id, person.id, [{ status: 'ongoing', dueDate: today, name: 'Dachabdichtung Block C, Nordseite bis zur Attika' }], long);
    const text = (await pageTexts((await download(ctx, team.admin, { user_id: person.id })).rawPayload)).join(' ');

    for (const name of [long.project, long.majorTask, 'Dachabdichtung Block C, Nordseite bis zur Attika']) expect(text).toContain(name);
    expect(text).not.toContain('…');
  });

  it('says a decision made within minutes took under 0.1 hours, not 0.0', async () => {
    const created = await createUser(ctx.app.db, team.company.id, 'team_member', { managerId: team.manager.id });
    const person: Caller = { ...created, access: (await loginAs(ctx.app, created)).access };
    const work = await insertWork(ctx.app.db, { ...team, member: person });
    const decide = async (caller: Caller, status: string) =>
      expect((await callAs(ctx.app, caller, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status } })).statusCode).toBe(200);
    await decide(person, 'pending_approval');
    await decide(team.manager, 'completed');
    const text = (await pageTexts((await download(ctx, team.admin, { user_id: person.id })).rawPayload)).join(' ');

    expect(text).toContain('under 0.1 hours');
    expect(text).not.toContain('0.0 hours');
  });

  it('says in French that 1 task of 1 was done, within minutes, whole: singular, and smaller rather than cut', async () => {
    const company = await createCompany(ctx.app.db, { timezone: ZONE });
    const manager = await createUser(ctx.app.db, company.id, 'manager');
    const person = await createUser(ctx.app.db, company.id, 'team_member', { managerId: manager.id });
    const callers = await Promise.all([company.admin, manager, person].map(async (user) => ({ ...user, access: (await loginAs(ctx.app, user)).access })));
    const [admin, managerCaller, personCaller] = callers as [Caller, Caller, Caller];
    const work = await insertWork(ctx.app.db, { company, admin, manager: managerCaller, member: personCaller } as unknown as Parameters<typeof insertWork>[1]);
    for (const [caller, status] of [[personCaller, 'pending_approval'], [managerCaller, 'completed']] as const) {
      expect((await callAs(ctx.app, caller, { method: 'PATCH', url: `/api/subtasks/${work.subtaskId}/`, payload: { status } })).statusCode).toBe(200);
    }
    await injectAs(ctx.app, admin.access, { method: 'PATCH', url: '/api/profile/', payload: { language: 'fr' } });
    const text = (await pageTexts((await injectAs(ctx.app, admin.access, { method: 'GET', url: `${PDF}?user_id=${person.id}` })).rawPayload)).join(' ');

    expect(text).toContain('1 tâche terminée sur 1');
    expect(text).toContain('moins de 0,1 heure');
    expect(text).not.toMatch(/…|\.\.\./);
  });

  it('says so when the person has nothing in the period', async () => {
    const [text] = await pageTexts((await download(ctx, team.admin, { user_id: team.otherMember.id, start_date: today })).rawPayload);

    expect(text).toContain(team.otherMember.email);
    expect(text).toContain(`From ${today}`);
    expect(text).toContain('Total tasks 0 Completed 0 Ongoing 0 Pending Approval 0 Overdue 0');
    expect(text).toContain('0%');
    expect(text).toContain('No subtasks in this period.');
  });

  it("is written in the requester's language: labels, dates and numbers", async () => {
    const company = await createCompany(ctx.app.db, { timezone: ZONE });
    const person = await createUser(ctx.app.db, company.id, 'team_member');
    await assignSubtasks(ctx.app.db, company.id, person.id, referenceSubtasks(today), { project: 'Hafenbrücke', majorTask: 'Deckenguss' });
    const { access } = await loginAs(ctx.app, company.admin);
    await injectAs(ctx.app, access, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } });

    const response = await injectAs(ctx.app, access, { method: 'GET', url: `${PDF}?user_id=${person.id}&start_date=2026-01-05&end_date=2099-12-31` });

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="appraisal_report.pdf"');
    const pages = await pageTexts(response.rawPayload);
    const first = pages[0]!;
    expect(first).toContain('Leistungsbericht');
    expect(first).toContain('Teammitglied');
    expect(first).toContain('05.01.2026 bis 31.12.2099');
    // The undated subtask falls outside any range.
    expect(first).toContain('Aufgaben gesamt 7 Erledigt 3 In Arbeit 2 Zur Abnahme 2 Überfällig 2');
    expect(first).toContain('43 %');
    expect(first).toContain('3 von 7 Aufgaben abgeschlossen');
    expect(first.replace(/\s/g, '')).toContain('BEIMERSTENMALABGENOMMENk.A.');
    expect(first).toContain('Teilaufgaben (7)');
    // A cut text ends in an ellipsis, which text extraction reads back as three dots.
    expect(first).not.toMatch(/…|\.\.\./);
    expect(first).toContain(`Seite 1 von ${pages.length}`);
    expect(first).not.toContain('Appraisal Report');
    expect(first).not.toContain('Total tasks');
  });

  it("says when it was generated in the reader's own time zone, the company's when they have none", async () => {
    const company = await createCompany(ctx.app.db, { timezone: ZONE });
    const person = await createUser(ctx.app.db, company.id, 'team_member');
    const { access } = await loginAs(ctx.app, company.admin);
    const now = (zone: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(new Date());
    /** The first page, and the reader's wall-clock time before and after the request (the minute may turn meanwhile). */
    const generatedIn = async (zone: string) => {
      const before = now(zone);
      const response = await injectAs(ctx.app, access, { method: 'GET', url: `${PDF}?user_id=${person.id}` });
      expect(response.statusCode).toBe(200);
      return { first: (await pageTexts(response.rawPayload))[0]!, times: [before, now(zone)] };
    };

    // UTC−11: a day and an hour behind the company's UTC+14.
    await injectAs(ctx.app, access, { method: 'PATCH', url: '/api/profile/', payload: { timezone: 'Pacific/Pago_Pago' } });
    const own = await generatedIn('Pacific/Pago_Pago');
    expect(own.first).toContain('Pacific/Pago_Pago');
    expect(own.first).not.toContain(ZONE);
    expect(own.times.some((time) => own.first.includes(time)), `${own.times.join(' or ')} in ${own.first.slice(0, 160)}`).toBe(true);

    await injectAs(ctx.app, access, { method: 'PATCH', url: '/api/profile/', payload: { timezone: null } });
    const companys = await generatedIn(ZONE);
    expect(companys.first).toContain(ZONE);
    expect(companys.times.some((time) => companys.first.includes(time))).toBe(true);
  });

  it.each([
    ['es', 'Reporte de desempeño', 'Total de tareas 7 Terminadas 3 En curso 2 Por aprobar 2 Atrasadas 2', 'Terminado'],
    ['fr', "Rapport d’évaluation", 'Total des tâches 7 Terminées 3 En cours 2 À valider 2 En retard 2', 'Terminé'],
  ] as const)('in %s too, with the words its screens use and none cut short', async (language, title, summary, rowStatus) => {
    const company = await createCompany(ctx.app.db, { timezone: ZONE });
    const person = await createUser(ctx.app.db, company.id, 'team_member');
    await assignSubtasks(ctx.app.db, company.id, person.id, referenceSubtasks(today), { project: 'Puente', majorTask: 'Losa' });
    const { access } = await loginAs(ctx.app, company.admin);
    await injectAs(ctx.app, access, { method: 'PATCH', url: '/api/profile/', payload: { language } });

    const response = await injectAs(ctx.app, access, { method: 'GET', url: `${PDF}?user_id=${person.id}&start_date=2026-01-05&end_date=2099-12-31` });

    const [first] = await pageTexts(response.rawPayload);
    expect(first).toContain(title);
    expect(first).toContain(summary);
    // One subtask's status is worded as a status, not as the count's label.
    expect(first).toMatch(new RegExp(`2026 ${rowStatus} Puente`));
    // A cut text ends in an ellipsis, which text extraction reads back as three dots.
    expect(first).not.toMatch(/…|\.\.\./);
  });

  it('prints names in any script: Greek, Cyrillic, Arabic, Chinese, Japanese and emoji, none as "?"', async () => {
    const names = ['Γέφυρα Ρίου', 'Мост через реку', 'تركيب السقالات', '浦东大桥施工', '東京タワー改修', 'Crane check 🏗👷'];
    const company = await createCompany(ctx.app.db, { name: `株式会社 山田建設 ${unique('Co')}` });
    const person = await createUser(ctx.app.db, company.id, 'team_member');
    await assignSubtasks(ctx.app.db, company.id, person.id, names.map((name) => ({ status: 'ongoing' as const, dueDate: today, name })), { project: 'Ελληνικό έργο', majorTask: 'العمل الرئيسي' });
    const { access } = await loginAs(ctx.app, company.admin);

    const response = await injectAs(ctx.app, access, { method: 'GET', url: `${PDF}?user_id=${person.id}` });

    expect(response.statusCode).toBe(200);
    const text = (await pageTexts(response.rawPayload)).join(' ');
    expect(text).toContain(company.name);
    expect(text).toContain('Ελληνικό έργο');
    // Every name comes back as it was written, Arabic too: shaped, laid right to left, its spaces kept.
    const readable = text.normalize('NFKC');
    for (const name of [...names, 'العمل الرئيسي']) expect(readable, name).toContain(name);
    expect(text).not.toContain('?');
  });

  it.each([
    ['with accents', 'María José Núñez-Ibáñez'],
    ['in Arabic', 'فاطمة الزهراء'],
  ])('names the employee by full name %s as the block title, on as many pages as the e-mail alone', async (_, fullName) => {
    const company = await createCompany(ctx.app.db, { timezone: ZONE });
    const unnamed = await createUser(ctx.app.db, company.id, 'team_member');
    const named = await createUser(ctx.app.db, company.id, 'team_member', { fullName });
    for (const person of [unnamed, named]) await assignSubtasks(ctx.app.db, company.id, person.id, referenceSubtasks(today), { project: 'Puente', majorTask: 'Losa' });
    const { access } = await loginAs(ctx.app, company.admin);
    const pagesOf = async (id: number) => pageTexts((await injectAs(ctx.app, access, { method: 'GET', url: `${PDF}?user_id=${id}` })).rawPayload);

    const before = await pagesOf(unnamed.id);
    const pages = await pagesOf(named.id);

    const first = pages[0]!.normalize('NFKC');
    // The name heads the block, the e-mail stays among its facts; the table still starts on the first page.
    expect(first.replace(/\s/g, '')).toContain(`${fullName}EMPLOYEEEMAIL${named.email}`.replace(/\s/g, ''));
    expect(first).toContain('Subtasks (8)');
    expect(first).toContain('Project Major Task Subtask Due Date Status');
    expect(pages).toHaveLength(before.length);
    for (const text of pages) expect(text.normalize('NFKC')).toContain(`Appraisal report for ${fullName}`);
  });

  describe('a long report', () => {
    let pages: string[];
    let size: number;
    const count = 300;

    beforeAll(async () => {
      const statuses = ['completed', 'ongoing', 'pending_approval'] as const;
      const planned: PlannedSubtask[] = Array.from({ length: count }, (_, index) => ({
        status: statuses[index % 3]!,
        dueDate: shiftDays(today, (index % 60) - 30),
        name: `Long report subtask ${String(index + 1).padStart(3, '0')}`,
      }));
      await assignSubtasks(ctx.app.db, team.company.id, team.otherManager.id, planned, { project: 'Ring Road', majorTask: 'Drainage' });
      const response = await download(ctx, team.admin, { user_id: team.otherManager.id });
      size = response.rawPayload.length;
      pages = await pageTexts(response.rawPayload);
    });

    it('runs over several pages and stays under 1 MB', () => {
      expect(pages.length).toBeGreaterThanOrEqual(5);
      expect(size).toBeLessThan(1024 * 1024);
    });

    it('lists every subtask once, repeats the table header and numbers every page', () => {
      const all = pages.join(' ');
      for (let index = 1; index <= count; index++) {
        const name = `Long report subtask ${String(index).padStart(3, '0')}`;
        expect(all.split(name).length - 1, name).toBe(1);
      }
      pages.forEach((text, index) => {
        expect(text, `page ${index + 1}`).toContain('Project Major Task Subtask Due Date Status');
        expect(text, `page ${index + 1}`).toContain(`Page ${index + 1} of ${pages.length}`);
      });
      for (const text of pages.slice(1)) expect(text).toContain(team.otherManager.email);
      expect(pages[0]).toContain('Total tasks 300 Completed 100 Ongoing 100 Pending Approval 100');
    });
  });
});
