import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { dateInZone } from '@siteboard/shared';
import { describeEachDatabase, type TestContext } from './test/build-app';
import { downloadAs, namedTeamAndRival, teamRecordAndRivalWork, wholeList } from './test/export-fixtures';
import { callAs, insertMajorTask, insertProject, insertSubtask, type Caller, type Team } from './test/work-factories';

const BOM = '\uFEFF';
/** People as the company knows them: a name beside the e-mail in every file; the admin gave none. */
const MANAGER_NAME = 'Ingrid Müller-Lüdenscheidt';
const MEMBER_NAME = 'Tomás Ruiz, "Tomi"';

/** A CSV answer as a spreadsheet program reads it: the header row, then one record per row. */
async function csvFrom(ctx: TestContext, caller: Caller, url: string, headers: Record<string, string> = {}) {
  const response = await downloadAs(ctx.app, caller, url, { mediaType: 'text/csv; charset=utf-8', extension: 'csv' }, headers);
  expect(response.body.startsWith(BOM)).toBe(true);
  const [header, ...rows] = parse(response.body, { bom: true }) as string[][];
  return { header: header!, rows, records: rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]!]))), response };
}

/** Every id the JSON list holds for the same query, page by page (one unpaged answer is bounded). */
async function jsonIds(ctx: TestContext, caller: Caller, url: string): Promise<number[]> {
  return (await wholeList<{ id: number }>(ctx.app, caller, url)).items.map((item) => item.id).sort((a, b) => a - b);
}

const idsOf = (records: Record<string, string>[]) => records.map((record) => Number(record.ID)).sort((a, b) => a - b);

describeEachDatabase('CSV exports', (ctx) => {
  let team: Team;
  let rival: Team;
  let s: Record<string, number>;

  beforeAll(async () => {
    [team, rival] = await namedTeamAndRival(ctx.app, { manager: MANAGER_NAME, member: MEMBER_NAME });
    const db = ctx.app.db;
    const companyId = team.company.id;
    // More projects than a page holds: an export has no paging.
    for (let index = 0; index < 103; index++) await insertProject(db, companyId, { managerId: team.manager.id, name: `Site ${String(index).padStart(3, '0')}`, status: index % 10 === 0 ? 'completed' : 'ongoing' });
    const project = await insertProject(db, companyId, { managerId: team.manager.id, name: 'Bâtiment Süd, "Nord"' });
    const majorTask = await insertMajorTask(db, companyId, project.id, { name: 'Façade' });
    const add = (name: string, values: { assignedToId: number; status?: 'ongoing' | 'pending_approval' | 'completed'; dueDate?: string }) =>
      insertSubtask(db, { companyId, majorTaskId: majorTask.id, assignedById: team.manager.id, name, ...values }).then((row) => row.id);
    s = {
      formula: await add('=HYPERLINK("http://evil.example","click")', { assignedToId: team.member.id, dueDate: '2026-03-04' }),
      plus: await add('+1+2', { assignedToId: team.member.id }),
      minus: await add('-3', { assignedToId: team.member.id }),
      at: await add('@SUM(A1)', { assignedToId: team.member.id }),
      tab: await add('\t=1', { assignedToId: team.member.id }),
      carriageReturn: await add('\r=1', { assignedToId: team.member.id }),
      plain: await add('Line one\nline two, "quoted" é', { assignedToId: team.member.id, status: 'pending_approval' }),
      otherMembers: await add('Other member', { assignedToId: team.otherMember.id, status: 'pending_approval' }),
      // The company's zone is UTC.
      dueToday: await add('Due today', { assignedToId: team.member.id, dueDate: new Date().toISOString().slice(0, 10) }),
    };
    await teamRecordAndRivalWork(ctx.app, team, rival);
  });

  describe('projects', () => {
    it('lists every matching project, limit and offset ignored, with English headers and ISO dates', async () => {
      const { header, records, response } = await csvFrom(ctx, team.admin, '/api/projects/?format=csv&limit=1&offset=5');
      expect(response.headers['content-disposition']).toMatch(/filename="siteboard-projects-\d{4}-\d{2}-\d{2}\.csv"/);
      expect(header).toEqual(['ID', 'Name', 'Description', 'Start Date', 'End Date', 'Manager', 'Manager Name', 'Status']);
      expect(idsOf(records)).toEqual(await jsonIds(ctx, team.admin, '/api/projects/'));
      expect(records).toHaveLength(104);
      expect(records.find((record) => record.Name === 'Bâtiment Süd, "Nord"')).toEqual({
        ID: expect.any(String),
        Name: 'Bâtiment Süd, "Nord"',
        Description: '',
        'Start Date': '2026-01-01',
        'End Date': '2026-12-31',
        Manager: team.manager.email,
        'Manager Name': MANAGER_NAME,
        Status: 'ongoing',
      });
    });

    it("is headed in the reader's language: the user's own once chosen, Accept-Language before", async () => {
      const setLanguage = (language: string) => callAs(ctx.app, team.admin, { method: 'PATCH', url: '/api/profile/', payload: { language } });
      expect((await setLanguage('de')).statusCode).toBe(200);
      try {
        const german = await csvFrom(ctx, team.admin, '/api/projects/?format=csv', { 'accept-language': 'fr' });
        expect(german.header).toEqual(['ID', 'Name', 'Beschreibung', 'Baubeginn', 'Fertigstellung', 'Bauleiter', 'Name des Bauleiters', 'Status']);
        // The values stay as the API carries them: only the headings are words.
        expect(german.records.find((record) => record.Name === 'Bâtiment Süd, "Nord"')?.Status).toBe('ongoing');
        const appraisal = await csvFrom(ctx, team.admin, `/api/appraisal-report/?user_id=${team.member.id}&format=csv`);
        expect(appraisal.header).toEqual(['Person', 'Name der Person', 'Kennung', 'Projekt', 'Hauptaufgabe', 'Teilaufgabe', 'Fällig am', 'Status', 'Überfällig',
          'Rolle',
          'Effizienzwert (%)',
          'Aufgaben gesamt',
          'Abgeschlossene Aufgaben',
          'Aufgaben in Arbeit',
          'Aufgaben zur Abnahme',
          'Überfällige Aufgaben',
          'Unerledigt geschlossene Aufgaben',
          'Pünktlich erledigt (%)',
          'Beim ersten Mal abgenommen (%)',
          'Zurückweisungen',
          'Median bis Entscheid (Std.)',
        ]);
      } finally {
        expect((await setLanguage('en')).statusCode).toBe(200);
      }
    });

    it('takes the same filters and order as the list', async () => {
      for (const query of ['status=completed', 'status=ongoing,planned&search=site%200', 'search=nothing-like-this']) {
        const { records } = await csvFrom(ctx, team.member, `/api/projects/?${query}&format=csv`);
        expect(idsOf(records), query).toEqual(await jsonIds(ctx, team.member, `/api/projects/?${query}`));
      }
      const newest = (await csvFrom(ctx, team.member, '/api/projects/?format=csv&order=newest')).records.map((record) => Number(record.ID));
      expect(newest).toEqual([...newest].sort((a, b) => b - a));
    });

    it('shows another company nothing of this one', async () => {
      const { records } = await csvFrom(ctx, rival.admin, '/api/projects/?format=csv&search=Site');
      expect(records.map((record) => record.Name)).toEqual(['Rival site']);
    });

    it('answers CSV to Accept: text/csv, and the JSON array as before otherwise', async () => {
      const { records, response: file } = await csvFrom(ctx, team.admin, '/api/projects/?status=completed', { accept: 'text/csv' });
      expect(records).toHaveLength(11);
      // The completed tab's file is named for it, apart from the ongoing tab's.
      expect(file.headers['content-disposition']).toMatch(/filename="siteboard-projects-completed-\d{4}-\d{2}-\d{2}\.csv"/);
      const plain = await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/projects/?status=completed' });
      for (const accept of ['*/*', 'application/json', 'text/csv;q=0.5, application/json']) {
        const response = await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/projects/?status=completed', headers: { accept } });
        expect(response.headers['content-type'], accept).toBe('application/json; charset=utf-8');
        expect(response.body, accept).toBe(plain.body);
      }
      expect((await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/projects/?status=completed&format=json', headers: { accept: 'text/csv' } })).body).toBe(plain.body);
    });

    it('is compressed on the way when the client accepts it', async () => {
      const response = await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/projects/?format=csv', headers: { 'accept-encoding': 'gzip' } });
      expect(response.headers['content-encoding']).toBe('gzip');
      const text = gunzipSync(response.rawPayload).toString('utf8');
      expect(text.startsWith(BOM)).toBe(true);
      expect(parse(text, { bom: true })).toHaveLength(105);
    });

    it('refuses a format it does not know', async () => {
      const response = await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/projects/?format=pdf' });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual({ format: ['format must be json, csv or xlsx.'] });
    });

    it('needs a signed-in user', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: '/api/projects/?format=csv' })).statusCode).toBe(401);
    });
  });

  describe('subtasks', () => {
    it('neutralises formulas, and keeps quotes, commas, line breaks and accents as written', async () => {
      const { header, records } = await csvFrom(ctx, team.member, '/api/subtasks/?assigned_to=me&format=csv');
      expect(header).toEqual(['ID', 'Project', 'Major Task', 'Subtask Title', 'Assignee', 'Assignee Name', 'Due Date', 'Status', 'Priority', 'Description', 'Assigned By', 'Assigned By Name', 'Created At', 'Sent for Approval At', 'Completed At']);
      const title = (id: number) => records.find((record) => Number(record.ID) === id)!['Subtask Title'];
      expect(title(s.formula!)).toBe(`'=HYPERLINK("http://evil.example","click")`);
      expect(title(s.plus!)).toBe("'+1+2");
      expect(title(s.minus!)).toBe("'-3");
      expect(title(s.at!)).toBe("'@SUM(A1)");
      expect(title(s.tab!)).toBe("'\t=1");
      expect(title(s.carriageReturn!)).toBe("'\r=1");
      expect(title(s.plain!)).toBe('Line one\nline two, "quoted" é');
      const formula = records.find((record) => Number(record.ID) === s.formula)!;
      expect(formula).toMatchObject({ Project: 'Bâtiment Süd, "Nord"', 'Major Task': 'Façade', Assignee: team.member.email, 'Assignee Name': MEMBER_NAME, 'Assigned By': team.manager.email, 'Assigned By Name': MANAGER_NAME, 'Due Date': '2026-03-04', Status: 'ongoing', Priority: 'medium', 'Completed At': '' });
      expect(formula['Created At']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it('takes the same filters as the list, and another company’s person is not found', async () => {
      for (const query of ['assigned_to=me', 'assigned_to=my_team', `assigned_to=${team.otherMember.id}`, 'status=pending_approval', 'project_status=completed', '']) {
        const { records } = await csvFrom(ctx, team.manager, `/api/subtasks/?${query}&format=csv`);
        expect(idsOf(records), query).toEqual(await jsonIds(ctx, team.manager, `/api/subtasks/?${query}`));
      }
      // For a file as for the list (decision record 120).
      const rivals = await callAs(ctx.app, rival.admin, { method: 'GET', url: `/api/subtasks/?assigned_to=${team.member.id}&format=csv` });
      expect(rivals.statusCode).toBe(404);
      expect(rivals.json()).toEqual({ detail: 'User not found.' });
      expect((await csvFrom(ctx, rival.admin, '/api/subtasks/?format=csv')).records.map((record) => record['Subtask Title'])).toEqual(['Rival work']);
    });

    it('lists the pending approvals each caller decides on, and their work due today, as the lists do', async () => {
      for (const caller of [team.manager, team.member, team.otherMember, team.admin, rival.manager]) {
        const { records, response } = await csvFrom(ctx, caller, '/api/pending-approvals/?format=csv');
        expect(response.headers['content-disposition']).toContain('siteboard-pending-approvals-');
        expect(idsOf(records), caller.email).toEqual(await jsonIds(ctx, caller, '/api/pending-approvals/'));
        const dueToday = await csvFrom(ctx, caller, '/api/tasks-due-today/?format=csv');
        expect(idsOf(dueToday.records), caller.email).toEqual(await jsonIds(ctx, caller, '/api/tasks-due-today/'));
      }
      expect(idsOf((await csvFrom(ctx, team.member, '/api/tasks-due-today/?format=csv')).records)).toEqual([s.dueToday]);
    });
  });

  describe('team workload', () => {
    it("is a manager's own team, least loaded first, each with their ongoing work one a line", async () => {
      const { header, records } = await csvFrom(ctx, team.manager, '/api/team-workload/?format=csv');
      expect(header).toEqual(['Team Member', 'Team Member Name', 'Ongoing Tasks', 'Ongoing Task Names']);
      const json = (await callAs(ctx.app, team.manager, { method: 'GET', url: '/api/team-workload/' })).json() as { email: string; full_name: string | null; task_count: number; tasks: string[] }[];
      expect(records).toEqual(
        json.map((item) => ({
          'Team Member': item.email,
          'Team Member Name': item.full_name,
          'Ongoing Tasks': String(item.task_count),
          'Ongoing Task Names': item.tasks.join('\n').replace(/^[=+\-@\t\r]/, "'$&"),
        })),
      );
      expect(records.map((record) => [record['Team Member'], record['Team Member Name']])).toEqual([[team.member.email, MEMBER_NAME]]);
      expect(records[0]!['Ongoing Task Names']).toContain('+1+2');
    });

    it('is refused to anyone but a manager, as the list is', async () => {
      for (const caller of [team.admin, team.member]) expect((await callAs(ctx.app, caller, { method: 'GET', url: '/api/team-workload/?format=csv' })).statusCode).toBe(403);
    });
  });

  describe('appraisal reports', () => {
    it("gives the admin one person's subtask table", async () => {
      const { header, records, response } = await csvFrom(ctx, team.admin, `/api/appraisal-report/?user_id=${team.member.id}&format=csv`);
      expect(response.headers['content-disposition']).toMatch(/siteboard-appraisal-report-TM-\d{4}-/);
      expect(header).toEqual(['Person', 'Person Name', 'Code', 'Project', 'Major Task', 'Subtask Title', 'Due Date', 'Status', 'Overdue', 'Role', 'Efficiency Score (%)', 'Total Tasks', 'Completed Tasks', 'Ongoing Tasks', 'Pending Approval Tasks', 'Overdue Tasks', 'Closed Unfinished Tasks', 'On-time Completion (%)', 'Approved the First Time (%)', 'Declines Received', 'Median Hours to Decision']);
      expect(records).toHaveLength(8);
      expect(records.every((record) => record.Person === team.member.email && record['Person Name'] === MEMBER_NAME)).toBe(true);
      expect(records.find((record) => record['Due Date'] === '2026-03-04')).toMatchObject({ Project: 'Bâtiment Süd, "Nord"', Status: 'ongoing', Overdue: 'true' });

      const ranged = await csvFrom(ctx, team.admin, `/api/appraisal-report/?user_id=${team.member.id}&start_date=2026-03-01&end_date=2026-03-31&format=csv`);
      expect(ranged.records.map((record) => record['Due Date'])).toEqual(['2026-03-04']);
    });

    it('refuses what the report refuses: another company’s person, an admin, a manager asking', async () => {
      expect((await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/appraisal-report/?user_id=${rival.member.id}&format=csv` })).statusCode).toBe(404);
      expect((await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/appraisal-report/?user_id=${team.admin.id}&format=csv` })).statusCode).toBe(400);
      expect((await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/appraisal-report/?user_id=${team.member.id}&format=csv` })).statusCode).toBe(403);
      expect((await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/appraisal-report/?format=csv' })).statusCode).toBe(400);
    });

    it("gives a manager their team's appraisals, one person a row, and refuses another team's person", async () => {
      const { header, records } = await csvFrom(ctx, team.manager, '/projects/api/manager-appraisal-report/?format=csv');
      expect(header).toEqual(['Person', 'Person Name', 'Code', 'Role', 'Efficiency Score (%)', 'Total Tasks', 'Completed Tasks', 'Ongoing Tasks', 'Pending Approval Tasks', 'Overdue Tasks', 'Closed Unfinished Tasks', 'On-time Completion (%)', 'Approved the First Time (%)', 'Declines Received', 'Median Hours to Decision']);
      const json = (await callAs(ctx.app, team.manager, { method: 'GET', url: '/projects/api/manager-appraisal-report/' })).json() as { name: string; total_tasks: number }[];
      expect(records.map((record) => [record.Person, Number(record['Total Tasks'])])).toEqual(json.map((item) => [item.name, item.total_tasks]));
      expect(records.map((record) => [record.Person, record['Person Name']])).toEqual([[team.member.email, MEMBER_NAME]]);
      expect((await callAs(ctx.app, team.manager, { method: 'GET', url: `/projects/api/manager-appraisal-report/?user_id=${team.otherMember.id}&format=csv` })).statusCode).toBe(403);
      expect((await callAs(ctx.app, team.member, { method: 'GET', url: '/projects/api/manager-appraisal-report/?format=csv' })).statusCode).toBe(403);
    });
  });

  describe('file names', () => {
    it("carry the day on the reader's calendar: UTC+14 and UTC−11 download on different days at every instant", async () => {
      // The rival company's people, so no other test's reader changes zone.
      const readers = [
        { caller: rival.admin, zone: 'Pacific/Kiritimati' },
        { caller: rival.manager, zone: 'Pacific/Pago_Pago' },
      ];
      for (const { caller, zone } of readers) expect((await callAs(ctx.app, caller, { method: 'PATCH', url: '/api/profile/', payload: { timezone: zone } })).statusCode).toBe(200);

      const names = [];
      for (const { caller, zone } of readers) {
        for (const format of ['csv', 'xlsx']) {
          const day = dateInZone(zone);
          const response = await callAs(ctx.app, caller, { method: 'GET', url: `/api/projects/?format=${format}` });
          names.push(response.headers['content-disposition']);
          // Read again after the answer: a test running across the zone's midnight takes either day.
          expect([`attachment; filename="siteboard-projects-${day}.${format}"`, `attachment; filename="siteboard-projects-${dateInZone(zone)}.${format}"`]).toContain(response.headers['content-disposition']);
        }
      }
      // 25 hours apart: never the same day, so one of them is not the UTC date.
      expect(new Set(names.map((name) => /\d{4}-\d{2}-\d{2}/.exec(String(name))![0])).size).toBe(2);
    });
  });
});
