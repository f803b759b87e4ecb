import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { XLSX_MEDIA_TYPE } from '@siteboard/shared';
import { listSubtaskBatch, type SubtaskExportRow } from './features/tasks/tasks.queries';
import { keysetBatches } from './lib/lists';
import { describeEachDatabase, type TestContext } from './test/build-app';
import { downloadAs, namedTeamAndRival, teamRecordAndRivalWork, wholeList } from './test/export-fixtures';
import { callAs, insertMajorTask, insertProject, insertSubtask, type Caller, type Team } from './test/work-factories';

const MANAGER_NAME = 'Maria Großmann';
const MEMBER_NAME = 'Jonas Weber';
/** The member's own zone; the company's is UTC, so a time read in the wrong zone is hours off. */
const MEMBER_ZONE = 'America/New_York';

/** A workbook answer as a spreadsheet program opens it: its one sheet, the header row's texts, and the rows' cell values. */
async function workbookFrom(ctx: TestContext, caller: Caller, url: string, headers: Record<string, string> = {}) {
  const response = await downloadAs(ctx.app, caller, url, { mediaType: XLSX_MEDIA_TYPE, extension: 'xlsx' }, headers);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0]!;
  const valuesOf = (row: ExcelJS.Row) => (row.values as ExcelJS.CellValue[]).slice(1);
  const header = valuesOf(sheet.getRow(1)) as string[];
  const rows: ExcelJS.CellValue[][] = [];
  sheet.eachRow((row, number) => {
    if (number > 1) rows.push(valuesOf(row));
  });
  const records = rows.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index] ?? null])));
  return { workbook, sheet, header, rows, records, response };
}

/** What a wall clock in `zone` showed at the instant, as a date cell holds it (no zone): worked out here apart from the server's own. */
function wallClockIn(zone: string, instant: string): Date {
  const text = new Intl.DateTimeFormat('sv-SE', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(new Date(instant));
  return new Date(`${text.replace(' ', 'T')}Z`);
}

describeEachDatabase('Excel workbooks of the lists', (ctx) => {
  let team: Team;
  let rival: Team;
  let projectId: number;
  let s: Record<string, number>;
  const setProfile = (caller: Caller, payload: object) => callAs(ctx.app, caller, { method: 'PATCH', url: '/api/profile/', payload });

  beforeAll(async () => {
    [team, rival] = await namedTeamAndRival(ctx.app, { manager: MANAGER_NAME, member: MEMBER_NAME });
    const db = ctx.app.db;
    const companyId = team.company.id;
    expect((await setProfile(team.member, { timezone: MEMBER_ZONE })).statusCode).toBe(200);
    for (let index = 0; index < 12; index++) await insertProject(db, companyId, { managerId: team.manager.id, name: `Site ${index}`, status: index % 4 === 0 ? 'completed' : 'ongoing' });
    const project = await insertProject(db, companyId, { managerId: team.manager.id, name: 'Bâtiment Süd', startDate: '2026-02-03', endDate: '2026-11-30', status: 'planned' });
    projectId = project.id;
    const majorTask = await insertMajorTask(db, companyId, project.id, { name: 'Façade' });
    const add = (name: string, values: { assignedToId: number; status?: 'ongoing' | 'pending_approval' | 'completed'; dueDate?: string | null; priority?: 'low' | 'medium' | 'high' }) =>
      insertSubtask(db, { companyId, majorTaskId: majorTask.id, assignedById: team.manager.id, name, ...values }).then((row) => row.id);
    s = {
      formula: await add('=SUM(A1:A9)', { assignedToId: team.member.id, dueDate: '2026-03-04', priority: 'high' }),
      waiting: await add('Scaffold check', { assignedToId: team.member.id, status: 'pending_approval', dueDate: '2026-01-15' }),
      undated: await add('Tidy the yard', { assignedToId: team.member.id, dueDate: null, priority: 'low' }),
      sameDay: await add('Second on the day', { assignedToId: team.member.id, dueDate: '2026-03-04' }),
      alsoUndated: await add('Sweep the stairs', { assignedToId: team.member.id, dueDate: null }),
      early: await add('Pour the slab', { assignedToId: team.member.id, dueDate: '2025-12-01' }),
      other: await add('Other member', { assignedToId: team.otherMember.id, status: 'pending_approval', dueDate: '2026-02-01' }),
    };
    await teamRecordAndRivalWork(ctx.app, team, rival);
  });

  describe('projects', () => {
    it('reads for a German admin: German headers and statuses, the manager by name, dates as dates, IDs as numbers', async () => {
      expect((await setProfile(team.admin, { language: 'de' })).statusCode).toBe(200);
      try {
        const { sheet, header, records } = await workbookFrom(ctx, team.admin, '/api/projects/?format=xlsx', { 'accept-language': 'fr' });
        expect(sheet.name).toBe('Projekte');
        expect(header).toEqual(['ID', 'Name', 'Beschreibung', 'Baubeginn', 'Fertigstellung', 'Bauleiter', 'Status']);
        expect(records.find((record) => record.Name === 'Bâtiment Süd')).toEqual({
          ID: projectId,
          Name: 'Bâtiment Süd',
          Beschreibung: null,
          Baubeginn: new Date('2026-02-03T00:00:00Z'),
          Fertigstellung: new Date('2026-11-30T00:00:00Z'),
          Bauleiter: MANAGER_NAME,
          Status: 'Geplant',
        });
        expect(new Set(records.map((record) => record.Status))).toEqual(new Set(['Geplant', 'In Arbeit', 'Abgeschlossen']));
        // German dates: the cell is a date, its format the reader's.
        expect(sheet.getCell('D2').numFmt).toBe('dd.mm.yyyy');
      } finally {
        expect((await setProfile(team.admin, { language: 'en' })).statusCode).toBe(200);
      }
    });

    it('holds every row of the list in its order, limit and offset ignored, under a frozen header with widths that fit', async () => {
      for (const query of ['', 'order=newest', 'status=completed', 'status=ongoing,planned&search=site%201']) {
        const { records, sheet } = await workbookFrom(ctx, team.member, `/api/projects/?${query}&format=xlsx&limit=1&offset=3`);
        const json = await wholeList<{ id: number }>(ctx.app, team.member, `/api/projects/?${query}`);
        expect(records.map((record) => record.ID), query).toEqual(json.items.map((item) => item.id));
        expect(records, query).toHaveLength(json.total);
        expect(sheet.views[0], query).toMatchObject({ state: 'frozen', ySplit: 1 });
      }
      const { workbook, sheet } = await workbookFrom(ctx, team.member, '/api/projects/?format=xlsx');
      expect(workbook.worksheets).toHaveLength(1);
      expect(sheet.getRow(1).font?.bold).toBe(true);
      // Wide enough for the header and the longest name in view, no wider than a screen.
      expect(sheet.getColumn(6).width).toBeGreaterThanOrEqual(MANAGER_NAME.length);
      expect(sheet.getColumn(2).width).toBeGreaterThanOrEqual('Bâtiment Süd'.length);
      for (let column = 1; column <= 7; column++) expect(sheet.getColumn(column).width).toBeLessThanOrEqual(60);
    });

    it("answers a workbook to its media type in Accept, and shows another company nothing of this one's", async () => {
      const { records } = await workbookFrom(ctx, rival.admin, '/api/projects/', { accept: XLSX_MEDIA_TYPE });
      expect(records.map((record) => record.Name)).toEqual(['Rival site']);
      const json = await callAs(ctx.app, rival.admin, { method: 'GET', url: '/api/projects/', headers: { accept: `${XLSX_MEDIA_TYPE};q=0.5, application/json` } });
      expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    });

    it("refuses a format it does not know, in the reader's language", async () => {
      const english = await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/projects/?format=pdf' });
      expect(english.statusCode).toBe(400);
      expect(english.json().errors).toEqual({ format: ['format must be json, csv or xlsx.'] });
      expect((await setProfile(team.admin, { language: 'de' })).statusCode).toBe(200);
      try {
        const german = await callAs(ctx.app, team.admin, { method: 'GET', url: '/api/projects/?format=xls' });
        expect(german.statusCode).toBe(400);
        expect(german.json().errors).toEqual({ format: ['format muss json, csv oder xlsx sein.'] });
      } finally {
        expect((await setProfile(team.admin, { language: 'en' })).statusCode).toBe(200);
      }
      expect((await ctx.app.inject({ method: 'GET', url: '/api/projects/?format=xlsx' })).statusCode).toBe(401);
    });
  });

  describe('subtasks', () => {
    it("writes times as date cells on the reader's own clock, dates as dates, words for codes and people by name", async () => {
      const { header, records } = await workbookFrom(ctx, team.member, '/api/subtasks/?assigned_to=me&format=xlsx');
      expect(header).toEqual(['ID', 'Project', 'Major Task', 'Subtask Title', 'Assignee', 'Due Date', 'Status', 'Priority', 'Description', 'Assigned By', 'Created At', 'Sent for Approval At', 'Completed At']);
      const json = (await wholeList<{ id: number; created_at: string }>(ctx.app, team.member, '/api/subtasks/?assigned_to=me')).items;
      const formula = records.find((record) => record.ID === s.formula)!;
      expect(formula).toMatchObject({
        Project: 'Bâtiment Süd',
        'Major Task': 'Façade',
        // Text is text in a workbook: nothing to neutralise, nothing added.
        'Subtask Title': '=SUM(A1:A9)',
        Assignee: MEMBER_NAME,
        'Due Date': new Date('2026-03-04T00:00:00Z'),
        Status: 'Ongoing',
        Priority: 'High',
        'Assigned By': MANAGER_NAME,
        'Sent for Approval At': null,
        'Completed At': null,
      });
      const createdAt = json.find((item) => item.id === s.formula)!.created_at;
      expect(formula['Created At']).toEqual(wallClockIn(MEMBER_ZONE, createdAt));
      expect(formula['Created At']).not.toEqual(wallClockIn('UTC', createdAt));
      expect(records.find((record) => record.ID === s.waiting)).toMatchObject({ Status: 'Pending Approval', Priority: 'Medium' });
      expect(records.find((record) => record.ID === s.undated)).toMatchObject({ 'Due Date': null, Priority: 'Low' });
    });

    it('holds the same rows as the list for each filter, as many as its total', async () => {
      for (const query of ['assigned_to=me', 'assigned_to=my_team', 'status=pending_approval', 'project_status=planned', '']) {
        const { records } = await workbookFrom(ctx, team.manager, `/api/subtasks/?${query}&format=xlsx`);
        const json = await wholeList<{ id: number }>(ctx.app, team.manager, `/api/subtasks/?${query}`);
        expect(records.map((record) => record.ID), query).toEqual(json.items.map((item) => item.id));
        expect(records, query).toHaveLength(json.total);
      }
      // Another company's person is not found, for a file as for the list (decision record 120).
      const rivals = await callAs(ctx.app, rival.admin, { method: 'GET', url: `/api/subtasks/?assigned_to=${team.member.id}&format=xlsx` });
      expect(rivals.statusCode).toBe(404);
      expect(rivals.json()).toEqual({ detail: 'User not found.' });
    });

    it("reads batch after batch in the list's order: soonest due first, equal dates by id, undated last", async () => {
      const filter = { assignedToId: team.member.id };
      const rows: number[] = [];
      // Batches of two: each resumes after the last row of the one before, across equal dates and into the undated ones.
      for await (const batch of keysetBatches<SubtaskExportRow>((last, size) => listSubtaskBatch(ctx.app.db, team.company.id, filter, last, size), 2)) rows.push(...batch.map((row) => row.id));
      const json = await wholeList<{ id: number }>(ctx.app, team.manager, `/api/subtasks/?assigned_to=${team.member.id}`);
      expect(rows).toEqual(json.items.map((item) => item.id));
      expect(rows.slice(-2)).toEqual([s.undated, s.alsoUndated]);
    });

    it('gives each caller the pending approvals and the work due today their lists give them, a team member only their own', async () => {
      for (const caller of [team.manager, team.member, team.otherMember, team.admin, rival.manager]) {
        for (const path of ['/api/pending-approvals/', '/api/tasks-due-today/']) {
          const { records } = await workbookFrom(ctx, caller, `${path}?format=xlsx`);
          const json = await wholeList<{ id: number }>(ctx.app, caller, path);
          expect(records.map((record) => record.ID), `${caller.email} ${path}`).toEqual(json.items.map((item) => item.id));
          expect(records).toHaveLength(json.total);
        }
      }
      const own = await workbookFrom(ctx, team.member, '/api/pending-approvals/?format=xlsx');
      expect(own.sheet.name).toBe('Pending Approvals');
      expect(own.records.map((record) => record.ID)).toEqual([s.waiting]);
    });
  });

  describe('team workload', () => {
    it("is a manager's own team by name, counts as numbers, the work one a line", async () => {
      const { header, records } = await workbookFrom(ctx, team.manager, '/api/team-workload/?format=xlsx');
      expect(header).toEqual(['Team Member', 'Ongoing Tasks', 'Ongoing Task Names']);
      const json = (await callAs(ctx.app, team.manager, { method: 'GET', url: '/api/team-workload/' })).json() as { task_count: number; tasks: string[] }[];
      expect(records).toEqual([{ 'Team Member': MEMBER_NAME, 'Ongoing Tasks': json[0]!.task_count, 'Ongoing Task Names': json[0]!.tasks.join('\n') }]);
      for (const caller of [team.admin, team.member]) expect((await callAs(ctx.app, caller, { method: 'GET', url: '/api/team-workload/?format=xlsx' })).statusCode).toBe(403);
    });
  });

  describe('appraisal reports', () => {
    it("gives a German admin one person's subtasks: named, statuses and yes or no in German", async () => {
      expect((await setProfile(team.admin, { language: 'de' })).statusCode).toBe(200);
      try {
        const { header, records } = await workbookFrom(ctx, team.admin, `/api/appraisal-report/?user_id=${team.member.id}&format=xlsx`);
        expect(header.slice(0, 8)).toEqual(['Person', 'Kennung', 'Projekt', 'Hauptaufgabe', 'Teilaufgabe', 'Fällig am', 'Status', 'Überfällig']);
        expect(header.slice(8, 10)).toEqual(['Rolle', 'Effizienzwert (%)']);
        expect(records).toHaveLength(6);
        expect(records.every((record) => record.Person === MEMBER_NAME)).toBe(true);
        expect(records.find((record) => record.Teilaufgabe === 'Scaffold check')).toMatchObject({ 'Fällig am': new Date('2026-01-15T00:00:00Z'), Status: 'Zur Abnahme' });
        expect(new Set(records.map((record) => record['Überfällig']))).toEqual(new Set(['Ja', 'Nein']));
      } finally {
        expect((await setProfile(team.admin, { language: 'en' })).statusCode).toBe(200);
      }
    });

    it("refuses what the report refuses: another company's person is not found", async () => {
      expect((await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/appraisal-report/?user_id=${rival.member.id}&format=xlsx` })).statusCode).toBe(404);
      expect((await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/appraisal-report/?user_id=${team.member.id}&format=xlsx` })).statusCode).toBe(403);
    });

    it("gives a manager their team's appraisals: one person a row, by name, the role in words, counts as numbers", async () => {
      const { records } = await workbookFrom(ctx, team.manager, '/projects/api/manager-appraisal-report/?format=xlsx');
      const json = (await callAs(ctx.app, team.manager, { method: 'GET', url: '/projects/api/manager-appraisal-report/' })).json() as { total_tasks: number; efficiency_score: number }[];
      expect(records).toHaveLength(json.length);
      expect(records[0]).toMatchObject({ Person: MEMBER_NAME, Role: 'Team Member', 'Total Tasks': json[0]!.total_tasks, 'Efficiency Score (%)': json[0]!.efficiency_score });
      expect((await callAs(ctx.app, team.member, { method: 'GET', url: '/projects/api/manager-appraisal-report/?format=xlsx' })).statusCode).toBe(403);
    });
  });

  describe('daily logs', () => {
    it("answers a workbook to Accept as to format, and another company's project is not found", async () => {
      const { response } = await workbookFrom(ctx, team.manager, `/api/projects/${projectId}/daily-logs/?from=2026-02-03&to=2026-02-04`, { accept: XLSX_MEDIA_TYPE });
      expect(response.headers['content-disposition']).toContain(`siteboard-daily-logs-${projectId}-2026-02-03-2026-02-04.xlsx`);
      expect((await callAs(ctx.app, rival.admin, { method: 'GET', url: `/api/projects/${projectId}/daily-logs/?format=xlsx` })).statusCode).toBe(404);
    });
  });
});
