import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { UNSTORABLE_TEXT, type ExpandedProject, type MajorTaskSummary, type Project, type ProjectStatus, type Subtask, type SubtaskPage } from '@siteboard/shared';
import { projects } from '../../schema/projects';
import { majorTasks, subtasks } from '../../schema/tasks';
import { describeEachDatabase, type TestContext } from '../../test/build-app';
import { insertSheets } from '../sheets/sheets.queries';
import { callAs, createTeam, expectQueryRefusals, listAs, type Caller, type Team } from '../../test/work-factories';

/** Inserts named projects of the team's company in one statement, in this order (so in id order). */
async function insertProjects(ctx: TestContext, team: Team, rows: { name: string; status?: ProjectStatus }[]) {
  return ctx.app.db
    .insert(projects)
    .values(rows.map((row) => ({ companyId: team.company.id, name: row.name, status: row.status ?? 'ongoing', startDate: '2026-01-01', endDate: '2026-12-31', managerId: team.manager.id })))
    .returning({ id: projects.id, name: projects.name });
}

/** Gives each project `majorTaskCount` major tasks with `subtaskCount` subtasks each, in two statements. */
async function insertTasks(ctx: TestContext, team: Team, projectIds: number[], majorTaskCount: number, subtaskCount: number) {
  const companyId = team.company.id;
  const tasks = await ctx.app.db
    .insert(majorTasks)
    .values(projectIds.flatMap((projectId) => Array.from({ length: majorTaskCount }, (_, i) => ({ companyId, projectId, name: `Task ${i}`, createdById: team.manager.id }))))
    .returning({ id: majorTasks.id });
  await ctx.app.db
    .insert(subtasks)
    .values(tasks.flatMap((task) => Array.from({ length: subtaskCount }, (_, i) => ({ companyId, majorTaskId: task.id, name: `Subtask ${i}`, assignedToId: team.member.id, assignedById: team.manager.id, dueDate: '2026-06-30' }))));
}

async function list(ctx: TestContext, caller: Caller, query: string) {
  const { items, total } = await listAs<Project>(ctx.app, caller, `/api/projects/?${query}`);
  return { body: items, names: items.map((project) => project.name), total };
}

describeEachDatabase('GET /api/projects/ filters and pages', (ctx) => {
  let team: Team;
  let rival: Team;
  let made: { id: number; name: string }[];
  const statuses: ProjectStatus[] = ['ongoing', 'planned', 'completed'];
  beforeAll(async () => {
    team = await createTeam(ctx.app);
    rival = await createTeam(ctx.app);
    // 25 projects: every third completed, and names a search can tell apart.
    made = await insertProjects(
      ctx,
      team,
      Array.from({ length: 25 }, (_, i) => ({ name: `${i % 2 ? 'Bridge' : 'Tower'} ${String(i).padStart(2, '0')}`, status: statuses[i % 3] })),
    );
    // The rival's projects match every filter below; they must never be answered or counted.
    await insertProjects(ctx, rival, Array.from({ length: 30 }, (_, i) => ({ name: `Bridge ${i}`, status: statuses[i % 3] })));
  });

  it('answers the first page, here the whole list, with its total when no limit is asked, as the spec calls it', async () => {
    const { items, total } = await listAs<Project>(ctx.app, team.member, '/api/projects/');

    expect(total).toBe(made.length);
    expect(items.map((project) => project.id)).toEqual(made.map((project) => project.id));
  });

  it('pages oldest first with limit and offset, and counts every match in X-Total-Count', async () => {
    const first = await list(ctx, team.manager, 'limit=10');
    const second = await list(ctx, team.manager, 'limit=10&offset=10');
    const last = await list(ctx, team.manager, 'limit=10&offset=20');

    expect(first.names).toEqual(made.slice(0, 10).map((project) => project.name));
    expect(second.names).toEqual(made.slice(10, 20).map((project) => project.name));
    expect(last.names).toEqual(made.slice(20).map((project) => project.name));
    expect([first.total, second.total, last.total]).toEqual([25, 25, 25]);
  });

  it('pages newest first when asked, so a project just created heads the list', async () => {
    const newest = await list(ctx, team.admin, 'order=newest&limit=3&offset=1&status=completed');

    const completed = made.filter((_, i) => statuses[i % 3] === 'completed').reverse();
    expect(newest.names).toEqual(completed.slice(1, 4).map((project) => project.name));
    expect(newest.total).toBe(completed.length);
  });

  it('still counts the matches for an offset past the end', async () => {
    expect(await list(ctx, team.admin, 'limit=10&offset=40')).toMatchObject({ names: [], total: 25 });
    expect(await list(ctx, team.admin, 'limit=10&offset=0&search=nothing-matches')).toMatchObject({ names: [], total: 0 });
  });

  it('filters by status: the Ongoing tab asks for ongoing and planned, the Completed tab for completed', async () => {
    const ongoing = await list(ctx, team.member, 'status=ongoing,planned&limit=100');
    const completed = await list(ctx, team.member, 'status=completed&limit=5');

    const expectedOngoing = made.filter((_, i) => statuses[i % 3] !== 'completed');
    expect(ongoing.names).toEqual(expectedOngoing.map((project) => project.name));
    expect(ongoing.total).toBe(expectedOngoing.length);
    expect(completed.body.every((project) => project.status === 'completed')).toBe(true);
    expect(completed.names).toHaveLength(5);
    expect(completed.total).toBe(made.length - expectedOngoing.length);
  });

  it('searches names as a case-insensitive substring, together with status and paging', async () => {
    const bridges = await list(ctx, team.member, 'search=bRiDgE&limit=3');
    const ongoingBridges = await list(ctx, team.member, 'search=%20bridge%20&status=ongoing,planned');

    const allBridges = made.filter((project) => project.name.startsWith('Bridge'));
    expect(bridges.names).toEqual(allBridges.slice(0, 3).map((project) => project.name));
    expect(bridges.total).toBe(allBridges.length);
    expect(ongoingBridges.names).toEqual(made.filter((project, i) => project.name.startsWith('Bridge') && statuses[i % 3] !== 'completed').map((project) => project.name));
    expect(ongoingBridges.total).toBe(ongoingBridges.names.length);
  });

  it('takes %, _ and \\ in a search as themselves, not as patterns', async () => {
    const own = await createTeam(ctx.app);
    await insertProjects(ctx, own, [{ name: '50% done' }, { name: 'A_B' }, { name: 'AxB' }, { name: 'Back\\slash' }, { name: 'Plain' }]);
    const names = async (search: string) => (await list(ctx, own.admin, `search=${encodeURIComponent(search)}`)).names;

    expect(await names('%')).toEqual(['50% done']);
    expect(await names('_')).toEqual(['A_B']);
    expect(await names('a_b')).toEqual(['A_B']);
    expect(await names('\\')).toEqual(['Back\\slash']);
    expect(await names('')).toHaveLength(5);
  });

  it('expands only the page, with the same number of statements for a page of big projects as of empty ones', async () => {
    const own = await createTeam(ctx.app);
    const small = await insertProjects(ctx, own, Array.from({ length: 12 }, (_, i) => ({ name: `Small ${i}` })));
    const big = await insertProjects(ctx, own, Array.from({ length: 12 }, (_, i) => ({ name: `Big ${i}` })));
    await insertTasks(ctx, own, small.slice(0, 2).map((project) => project.id), 1, 1);
    await insertTasks(ctx, own, big.map((project) => project.id), 4, 5);

    // The caller's identity is known after its first request: only the list's own statements count.
    await list(ctx, own.member, 'limit=1');
    const measure = async (query: string) => {
      ctx.queries.length = 0;
      const page = await list(ctx, own.member, query);
      return { statements: ctx.queries.length, page: page.body as ExpandedProject[], total: page.total };
    };
    const smallPage = await measure('expand=major_tasks&search=small&limit=10');
    const bigPage = await measure('expand=major_tasks&search=big&limit=10&offset=1');

    expect(smallPage.page.map((project) => project.name)).toEqual(small.slice(0, 10).map((project) => project.name));
    expect(bigPage.page.map((project) => project.name)).toEqual(big.slice(1, 11).map((project) => project.name));
    expect(bigPage.total).toBe(12);
    for (const project of bigPage.page) {
      expect(project.major_tasks).toHaveLength(4);
      for (const task of project.major_tasks) {
        expect(task.project_id).toBe(project.id);
        expect(task.subtasks).toHaveLength(5);
      }
    }
    // The token check, the page with its total, the major tasks, their subtasks.
    expect(bigPage.statements).toBe(smallPage.statements);
    expect(bigPage.statements).toBeLessThanOrEqual(4);
    const ids = await measure('search=big&limit=10');
    expect(ids.page.every((project) => project.major_tasks.length === 4 && project.major_tasks.every((id) => typeof id === 'number'))).toBe(true);
    expect(ids.statements).toBeLessThanOrEqual(3);
  });

  it('refuses malformed parameters with 400 and says which and why', async () => {
    await expectQueryRefusals(ctx.app, team.admin, '/api/projects/', [
      ['limit=0', { limit: ['limit must be at least 1.'] }],
      ['limit=101', { limit: ['limit must be at most 100.'] }],
      ['limit=ten', { limit: ['limit must be a whole number.'] }],
      ['limit=2.5', { limit: ['limit must be a whole number.'] }],
      ['offset=-1', { offset: ['offset must be a whole number.'] }],
      ['status=archived', { status: ['status must be a comma list of planned, ongoing, completed.'] }],
      ['status=ongoing,', { status: ['status must be a comma list of planned, ongoing, completed.'] }],
      [`search=${'x'.repeat(201)}`, { search: ['search must be at most 200 characters.'] }],
      ['search=a%00b', { search: [UNSTORABLE_TEXT] }],
      ['order=name', { order: ['order must be oldest or newest.'] }],
    ]);
  });

  it('documents the filters and the paging in /api/openapi.json', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const operation = document.paths['/api/projects/'].get;

    expect(operation.parameters.map((parameter: { name: string }) => parameter.name).sort()).toEqual(['expand', 'format', 'limit', 'offset', 'order', 'search', 'status']);
    expect(operation.description).toContain('X-Total-Count');
  });

  describe('GET /api/projects/{id}/', () => {
    it('answers one project of the company, with its major tasks when asked to expand', async () => {
      const [project] = await insertProjects(ctx, team, [{ name: 'Single' }]);
      await insertTasks(ctx, team, [project!.id], 2, 3);

      const plain = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${project!.id}/` });
      const expanded = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${project!.id}/?expand=major_tasks` });

      expect(plain.statusCode).toBe(200);
      expect(plain.json()).toMatchObject({ id: project!.id, name: 'Single', major_tasks: [expect.any(Number), expect.any(Number)] });
      expect(expanded.json().major_tasks.map((task: { subtasks: unknown[] }) => task.subtasks.length)).toEqual([3, 3]);
    });

    it("answers 404 for another company's project and an unknown one", async () => {
      const [foreign] = await insertProjects(ctx, rival, [{ name: 'Foreign' }]);
      for (const id of [foreign!.id, 2_000_000_000]) {
        const response = await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/projects/${id}/` });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ detail: 'Project not found.' });
      }
    });
  });
});

describeEachDatabase("a project's major tasks and subtasks a page at a time, beside ?expand=major_tasks", (ctx) => {
  let team: Team;
  let rival: Team;
  let projectId: number;
  let otherProjectId: number;
  let rivalProjectId: number;
  let tasks: { id: number; name: string }[];
  beforeAll(async () => {
    [team, rival] = [await createTeam(ctx.app), await createTeam(ctx.app)];
    [{ id: projectId }, { id: otherProjectId }] = await insertProjects(ctx, team, [{ name: 'Large site' }, { name: 'Other site' }]);
    [{ id: rivalProjectId }] = await insertProjects(ctx, rival, [{ name: 'Rival site' }]);
    // 25 major tasks of 4 subtasks each, and as many in the other project, which no answer may mix in.
    await insertTasks(ctx, team, [projectId, otherProjectId], 25, 4);
    tasks = await ctx.app.db.select({ id: majorTasks.id, name: majorTasks.name }).from(majorTasks).where(eq(majorTasks.projectId, projectId)).orderBy(majorTasks.id);
    const [first] = tasks;
    const firstSubtasks = await ctx.app.db.select({ id: subtasks.id }).from(subtasks).where(eq(subtasks.majorTaskId, first!.id)).orderBy(subtasks.id);
    await ctx.app.db.update(subtasks).set({ priority: 'high', status: 'completed' }).where(eq(subtasks.id, firstSubtasks[0]!.id));
    await ctx.app.db.update(subtasks).set({ priority: 'low', name: 'Seal window W3' }).where(eq(subtasks.id, firstSubtasks[1]!.id));
    const [sheetId] = await insertSheets(ctx.app.db, [{ companyId: team.company.id, projectId, name: 'Level 1', pageNumber: 1, source: 'image', sourcePath: '/nowhere', createdById: team.manager.id }]);
    await ctx.app.db.update(subtasks).set({ pinSheetId: sheetId, pinX: 0.5, pinY: 0.5 }).where(eq(subtasks.id, firstSubtasks[2]!.id));
  });

  it('lists the major tasks oldest first, a page of them with their total, each with its subtasks counted and none listed', async () => {
    for (const caller of [team.admin, team.manager, team.member]) {
      const first = await listAs<MajorTaskSummary & { subtasks?: unknown }>(ctx.app, caller, `/api/projects/${projectId}/major-tasks/?limit=10`);
      const second = await listAs<MajorTaskSummary>(ctx.app, caller, `/api/projects/${projectId}/major-tasks/?limit=10&offset=20`);
      expect([first.total, second.total]).toEqual([25, 25]);
      expect([...first.items, ...second.items].map((task) => task.id)).toEqual([...tasks.slice(0, 10), ...tasks.slice(20)].map((task) => task.id));
      expect(first.items[0]).toMatchObject({ name: 'Task 0', project_id: projectId, project: { id: projectId, name: 'Large site', manager_id: team.manager.id }, created_by: { id: team.manager.id } });
      expect(first.items[0]!.subtask_counts).toEqual({ total: 4, completed: 1, low: 1, medium: 2, high: 1 });
      expect(first.items[1]!.subtask_counts).toEqual({ total: 4, completed: 0, low: 0, medium: 4, high: 0 });
      expect(first.items[0]!.subtasks).toBeUndefined();
    }
  });

  it('finds major tasks by a part of their name, as a picker does while the user types', async () => {
    const { items, total } = await listAs<MajorTaskSummary>(ctx.app, team.member, `/api/projects/${projectId}/major-tasks/?search=task%201&limit=5`);
    expect(total).toBe(11);
    expect(items.map((task) => task.name)).toEqual(['Task 1', 'Task 10', 'Task 11', 'Task 12', 'Task 13']);
    expect((await listAs(ctx.app, team.member, `/api/projects/${projectId}/major-tasks/?search=100%25`)).total).toBe(0);
  });

  it("lists the project's subtasks a page at a time: of one major task, by name, on no drawing", async () => {
    const all = await listAs<Subtask>(ctx.app, team.manager, `/api/projects/${projectId}/subtasks/?limit=20`);
    expect([all.items.length, all.total]).toEqual([20, 100]);
    expect(new Set(all.items.map((subtask) => subtask.major_task.project.id))).toEqual(new Set([projectId]));

    const ofFirst = await listAs<Subtask>(ctx.app, team.member, `/api/projects/${projectId}/subtasks/?major_task_id=${tasks[0]!.id}`);
    expect(ofFirst.total).toBe(4);
    expect(new Set(ofFirst.items.map((subtask) => subtask.major_task_id))).toEqual(new Set([tasks[0]!.id]));

    const found = await listAs<Subtask>(ctx.app, team.manager, `/api/projects/${projectId}/subtasks/?search=WINDOW%20w3`);
    expect(found.items.map((subtask) => subtask.name)).toEqual(['Seal window W3']);

    const unpinned = await listAs<Subtask>(ctx.app, team.manager, `/api/projects/${projectId}/subtasks/?pinned=false&major_task_id=${tasks[0]!.id}`);
    const pinned = await listAs<Subtask>(ctx.app, team.manager, `/api/projects/${projectId}/subtasks/?pinned=true`);
    expect([unpinned.total, pinned.total]).toEqual([3, 1]);
    expect(unpinned.items.every((subtask) => subtask.pin === null)).toBe(true);
    expect(pinned.items[0]!.pin).toMatchObject({ x: 0.5, y: 0.5 });

  });

  it("answers 404 for another project's or company's major task, or none, as the first subtask pages do", async () => {
    const otherTask = (await listAs<MajorTaskSummary>(ctx.app, team.manager, `/api/projects/${otherProjectId}/major-tasks/?limit=1`)).items[0]!;
    const [rivalTask] = await ctx.app.db.insert(majorTasks).values({ companyId: rival.company.id, projectId: rivalProjectId, name: 'Rival task', createdById: rival.manager.id }).returning({ id: majorTasks.id });
    for (const foreign of [otherTask.id, rivalTask!.id, 2_000_000_000]) {
      for (const query of [`major_task_id=${foreign}`, `major_task_id=${foreign}&pinned=false&offset=20`, `major_task_id=${foreign}&limit=0`]) {
        const response = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${projectId}/subtasks/?${query}` });
        expect([response.statusCode, response.json()], query).toEqual([404, { detail: 'Major task not found.' }]);
      }
    }
    // Another company's project is still the project's 404, whatever major task the query names.
    const rivals = await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/projects/${rivalProjectId}/subtasks/?major_task_id=${rivalTask!.id}` });
    expect([rivals.statusCode, rivals.json().detail]).toEqual([404, 'Project not found.']);
  });

  it("answers another company's project with 404 before reading the query, and refuses a page too large", async () => {
    for (const path of ['major-tasks', 'subtasks']) {
      for (const query of ['', '?limit=0', '?limit=abc&pinned=maybe']) {
        const response = await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/projects/${rivalProjectId}/${path}/${query}` });
        expect(response.statusCode, `${path}${query}`).toBe(404);
        expect(response.json().detail).toBe('Project not found.');
      }
      expect((await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/projects/${projectId}/${path}/?limit=101` })).statusCode).toBe(400);
    }
    await expectQueryRefusals(ctx.app, team.manager, `/api/projects/${projectId}/subtasks/`, [
      ['limit=0&pinned=maybe', { limit: ['limit must be at least 1.'], pinned: ['pinned must be true or false.'] }],
      ['major_task_id=x', { major_task_id: ['major_task_id must be a major task id.'] }],
    ]);
  });

  it("answers a page of major tasks' first subtasks, each with its total, in one request of as many statements for big tasks as for small", async () => {
    const [{ id: busyProjectId }] = await insertProjects(ctx, team, [{ name: 'Busy site' }]);
    await insertTasks(ctx, team, [busyProjectId], 3, 30);
    const busyTasks = await ctx.app.db.select({ id: majorTasks.id }).from(majorTasks).where(eq(majorTasks.projectId, busyProjectId)).orderBy(majorTasks.id);
    const pagesOf = async (project: number, ids: number[], limit: number) => {
      ctx.queries.length = 0;
      const response = await callAs(ctx.app, team.admin, { method: 'GET', url: `/api/projects/${project}/subtask-pages/?major_task_ids=${ids.join(',')}&limit=${limit}` });
      expect(response.statusCode).toBe(200);
      return { statements: ctx.queries.length, pages: response.json() as SubtaskPage[] };
    };
    await pagesOf(projectId, [tasks[0]!.id], 1);

    const small = await pagesOf(projectId, [tasks[1]!.id, tasks[0]!.id], 3);
    expect(small.pages.map((page) => [page.major_task_id, page.total, page.subtasks.length])).toEqual([
      [tasks[1]!.id, 4, 3],
      [tasks[0]!.id, 4, 3],
    ]);
    // The same first page as the major task's own list answers, and "show more" goes on from it there.
    const ownFirst = await listAs<Subtask>(ctx.app, team.admin, `/api/projects/${projectId}/subtasks/?major_task_id=${tasks[0]!.id}&limit=3`);
    expect(small.pages[1]!.subtasks).toEqual(ownFirst.items);

    const big = await pagesOf(busyProjectId, busyTasks.map((task) => task.id), 20);
    expect(big.pages.map((page) => [page.total, page.subtasks.length])).toEqual([
      [30, 20],
      [30, 20],
      [30, 20],
    ]);
    expect(big.pages.every((page) => page.subtasks.every((subtask) => subtask.major_task_id === page.major_task_id))).toBe(true);
    // The token check, the guard finding the project and its major tasks in one, their pages.
    expect(big.statements).toBe(small.statements);
    expect(big.statements).toBeLessThanOrEqual(3);
  });

  it("answers 404 for another project's or company's major task and refuses a malformed list of ids in the reader's language", async () => {
    const otherTask = (await listAs<MajorTaskSummary>(ctx.app, team.manager, `/api/projects/${otherProjectId}/major-tasks/?limit=1`)).items[0]!;
    const [rivalTask] = await ctx.app.db.insert(majorTasks).values({ companyId: rival.company.id, projectId: rivalProjectId, name: 'Rival task', createdById: rival.manager.id }).returning({ id: majorTasks.id });
    for (const foreign of [otherTask.id, rivalTask!.id, 2_000_000_000]) {
      const response = await callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${projectId}/subtask-pages/?major_task_ids=${tasks[0]!.id},${foreign}` });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ detail: 'Major task not found.' });
    }
    const rivals = await callAs(ctx.app, team.manager, { method: 'GET', url: `/api/projects/${rivalProjectId}/subtask-pages/?major_task_ids=x` });
    expect([rivals.statusCode, rivals.json().detail]).toEqual([404, 'Project not found.']);

    await expectQueryRefusals(ctx.app, team.manager, `/api/projects/${projectId}/subtask-pages/`, [
      ['', { major_task_ids: ['major_task_ids is required.'] }],
      ['major_task_ids=1,,2&limit=21', { major_task_ids: ['major_task_ids must be a comma list of major task ids.'], limit: ['limit must be at most 20.'] }],
      [`major_task_ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`, { major_task_ids: ['At most 100 ids at once.'] }],
    ]);
    // A reader who reads German (the rival's manager, in their own project) reads the refusal in German.
    expect((await callAs(ctx.app, rival.manager, { method: 'PATCH', url: '/api/profile/', payload: { language: 'de' } })).statusCode).toBe(200);
    const german = await callAs(ctx.app, rival.manager, { method: 'GET', url: `/api/projects/${rivalProjectId}/subtask-pages/?major_task_ids=0x1` });
    expect(german.statusCode).toBe(400);
    expect(german.json().errors).toEqual({ major_task_ids: ['major_task_ids muss eine durch Kommas getrennte Liste von Hauptaufgaben-IDs sein.'] });
  });

  it('keeps ?expand=major_tasks answering the whole tree, and documents the pages beside it', async () => {
    const expanded = (await callAs(ctx.app, team.member, { method: 'GET', url: `/api/projects/${projectId}/?expand=major_tasks` })).json() as ExpandedProject;
    expect(expanded.major_tasks).toHaveLength(25);
    expect(expanded.major_tasks.flatMap((task) => task.subtasks)).toHaveLength(100);
    const openApi = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as { paths: Record<string, { get?: { parameters?: { name: string }[] } }> };
    expect(openApi.paths['/api/projects/{id}/major-tasks/']?.get?.parameters?.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['id', 'search', 'limit', 'offset']));
    expect(openApi.paths['/api/projects/{id}/subtasks/']?.get?.parameters?.map((parameter) => parameter.name)).toEqual(expect.arrayContaining(['id', 'search', 'major_task_id', 'pinned', 'limit', 'offset']));
  });
});
