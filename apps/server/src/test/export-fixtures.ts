import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { App } from '../app';
import { users } from '../schema/users';
import { callAs, createTeamAndRival, insertMajorTask, insertProject, insertSubtask, listAs, type Caller, type Team } from './work-factories';

/**
 * The company whose lists are exported, its manager and member known by these names (the admin
 * gave none), and a rival company whose rows no file may hold.
 */
export async function namedTeamAndRival(app: App, names: { manager: string; member: string }): Promise<[team: Team, rival: Team]> {
  const [team, rival] = await createTeamAndRival(app);
  await app.db.update(users).set({ fullName: names.manager }).where(eq(users.id, team.manager.id));
  await app.db.update(users).set({ fullName: names.member }).where(eq(users.id, team.member.id));
  return [team, rival];
}

/**
 * What every export's data holds beside the rows a file shows: the member's record in the
 * manager's team (the workload reads team records) and the rival's work waiting for approval,
 * which no file of the team's may hold.
 */
export async function teamRecordAndRivalWork(app: App, team: Team, rival: Team) {
  const record = await callAs(app, team.admin, { method: 'POST', url: '/api/team-members/', payload: { user_id: team.member.id, manager_id: team.manager.id } });
  expect(record.statusCode, record.body).toBe(201);
  const rivalProject = await insertProject(app.db, rival.company.id, { managerId: rival.manager.id, name: 'Rival site' });
  const rivalTask = await insertMajorTask(app.db, rival.company.id, rivalProject.id);
  await insertSubtask(app.db, { companyId: rival.company.id, majorTaskId: rivalTask.id, assignedToId: rival.member.id, assignedById: rival.manager.id, name: 'Rival work', status: 'pending_approval' });
}

/** An export's answer as a browser downloads it: 200, the file's media type, an attachment named `siteboard-<list>-<date>.<extension>`. */
export async function downloadAs(app: App, caller: Caller, url: string, file: { mediaType: string; extension: 'csv' | 'xlsx' }, headers: Record<string, string> = {}) {
  const response = await callAs(app, caller, { method: 'GET', url, headers });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe(file.mediaType);
  expect(response.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="siteboard-[a-z0-9-]+-\\d{4}-\\d{2}-\\d{2}\\.${file.extension}"$`, 'i'));
  return response;
}

/** The JSON list's whole answer for the same query, page by page, in its order, and the total it reported: what an export must match. */
export async function wholeList<T>(app: App, caller: Caller, url: string): Promise<{ items: T[]; total: number }> {
  const items: T[] = [];
  let total = 0;
  for (let offset = 0; ; ) {
    const answer = await listAs<T>(app, caller, `${url}${url.includes('?') ? '&' : '?'}limit=100&offset=${offset}`);
    const page = answer.items;
    items.push(...page);
    total = Number(answer.total);
    offset += page.length;
    if (page.length === 0 || offset >= total) break;
  }
  return { items, total };
}
