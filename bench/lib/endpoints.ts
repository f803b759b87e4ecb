/**
 * The requests the benchmarks make on the large data (`npm run seed:large`), acting as the first
 * company's manager1 (ten projects, a team of 20) and member1. Shared by the load runs and the
 * EXPLAIN report so both look at the same calls.
 */
export const LARGE_PASSWORD = 'large-password';
const DOMAIN = 'c1.large.test';

/** One JSON call to the server; throws on a non-2xx answer. */
export type Call = <T>(method: string, url: string, token?: string, body?: unknown) => Promise<T>;

export type Kind = 'read' | 'write';
export interface Endpoint {
  name: string;
  kind: Kind;
  note?: string;
  /** Why the call's latency is not held to the issue's bar (its errors still are). */
  outsideTheBar?: string;
  /** One request at a time: autocannon calls it for every request it sends. */
  next: () => { method: 'GET' | 'POST' | 'PATCH'; path: string; token?: string; body?: unknown };
}
/** Signs in the people the runs act as and gathers the ids the write runs cycle through. */
export async function describeEndpoints(call: Call): Promise<Endpoint[]> {
  const companies = await call<{ id: number; name: string }[]>('GET', '/api/companies/');
  const companyId = companies.find((company) => company.name === 'Large Contractor 1')!.id;
  const login = (email: string, role: string) => call<{ access: string }>('POST', '/api/token/', undefined, { email, password: LARGE_PASSWORD, role, company_id: companyId });
  const manager = (await login(`manager1@${DOMAIN}`, 'manager')).access;
  const member = (await login(`member1@${DOMAIN}`, 'team_member')).access;

  const team = await call<{ user: { id: number; email: string } }[]>('GET', '/api/team-members/', manager);
  const teamSubtasks = (
    await Promise.all(team.map((record) => call<{ id: number; major_task: { project: { id: number; status: string } } }[]>('GET', `/api/subtasks/?assigned_to=${record.user.id}`, manager)))
  ).flat();
  // Subtasks of completed projects are view-only: only the others can change status.
  const changeable = teamSubtasks.filter((subtask) => subtask.major_task.project.status !== 'completed');
  const projectIds = [...new Set(changeable.map((subtask) => subtask.major_task.project.id))];
  console.log(`manager1: team of ${team.length}, ${changeable.length} changeable subtasks in ${projectIds.length} projects`);

  const cycle = <T>(items: T[]) => {
    let index = 0;
    return () => items[index++ % items.length]!;
  };
  const nextLogin = cycle(team.map((record) => record.user.email));
  const nextSubtask = cycle(changeable.map((subtask) => subtask.id));
  const nextProject = cycle(projectIds);
  const nextExpanded = cycle(projectIds);
  const nextAssignee = cycle(team.map((record) => record.user.id));
  let statusChanges = 0;
  let majorTasks = 0;
  const dueDate = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

  return [
    {
      name: 'login (POST /api/token/)',
      kind: 'write',
      note: 'argon2id verify (19 MiB, t=2) by design',
      outsideTheBar:
        'each sign-in verifies an argon2id hash at the cost DESIGN.md sets as the floor (19 MiB, 2 passes, ~20 ms of one core), so ten at once queue for the CPU cores; meeting 100 ms would mean weaker password hashing',
      next: () => ({ method: 'POST', path: '/api/token/', body: { email: nextLogin(), password: LARGE_PASSWORD, role: 'team_member', company_id: companyId } }),
    },
    { name: 'profile', kind: 'read', next: () => ({ method: 'GET', path: '/api/profile/', token: member }) },
    // The lists as the dashboards ask for them: the first page of 20 and its total.
    { name: 'subtasks assigned to me, first 20 (member)', kind: 'read', next: () => ({ method: 'GET', path: '/api/subtasks/?assigned_to=me&limit=20&offset=0', token: member }) },
    { name: 'projects, first page of 10 (manager)', kind: 'read', next: () => ({ method: 'GET', path: '/api/projects/?status=ongoing,planned&limit=10', token: manager }) },
    // What expanding a project on the projects screen asks: its 10 major tasks with their 100 subtasks.
    { name: 'project with expand=major_tasks (manager)', kind: 'read', next: () => ({ method: 'GET', path: `/api/projects/${nextExpanded()}/?expand=major_tasks`, token: manager }) },
    { name: 'pending approvals, first 20 (manager)', kind: 'read', next: () => ({ method: 'GET', path: '/api/pending-approvals/?limit=20&offset=0', token: manager }) },
    { name: 'tasks due today, first 20 (manager)', kind: 'read', next: () => ({ method: 'GET', path: '/api/tasks-due-today/?limit=20&offset=0', token: manager }) },
    // The team workload screen: the manager's 20 people with the names of their ongoing subtasks.
    { name: 'team workload (manager)', kind: 'read', next: () => ({ method: 'GET', path: '/api/team-workload/', token: manager }) },
    { name: 'notifications list (manager)', kind: 'read', next: () => ({ method: 'GET', path: `/api/notifications/?email=${encodeURIComponent(`manager1@${DOMAIN}`)}`, token: manager }) },
    { name: 'manager appraisal report (team of 20)', kind: 'read', next: () => ({ method: 'GET', path: '/projects/api/manager-appraisal-report/', token: manager }) },
    { name: 'mark notifications read (member)', kind: 'write', next: () => ({ method: 'PATCH', path: '/api/notifications/mark-read/', token: member, body: {} }) },
    {
      name: 'subtask status change (manager)',
      kind: 'write',
      next: () => {
        // Each pass over the subtasks flips them all, so every request really changes a row and notifies its assignee.
        const status = Math.floor(statusChanges++ / changeable.length) % 2 === 0 ? 'completed' : 'ongoing';
        return { method: 'PATCH', path: `/api/subtasks/${nextSubtask()}/`, token: manager, body: { status } };
      },
    },
    {
      name: 'major task with 5 subtasks (manager)',
      kind: 'write',
      next: () => {
        const number = ++majorTasks;
        const subtasks = Array.from({ length: 5 }, (_, index) => ({ name: `Bench subtask ${number}.${index + 1}`, assigned_to_id: nextAssignee(), due_date: dueDate, priority: 'medium' }));
        return { method: 'POST', path: '/api/major-tasks/', token: manager, body: { project_id: nextProject(), name: `Bench task ${number}`, description: '', subtasks } };
      },
    },
  ];
}

