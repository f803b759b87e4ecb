import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO, type Role } from './fixtures';

/** Calls the API directly as one person: for setting up data a journey needs, and for checking what a screen did. */
export interface ApiSession {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, data: unknown): Promise<T>;
  patch<T>(path: string, data: unknown): Promise<T>;
  put<T>(path: string, data: unknown): Promise<T>;
}

function session(request: APIRequestContext, token: string): ApiSession {
  const headers = { Authorization: `Bearer ${token}` };
  const read = async <T>(response: Awaited<ReturnType<APIRequestContext['get']>>) => {
    expect(response.ok(), `${response.url()} answered ${response.status()}: ${await response.text()}`).toBeTruthy();
    return (await response.json()) as T;
  };
  return {
    get: async (path) => read(await request.get(path, { headers })),
    post: async (path, data) => read(await request.post(path, { headers, data })),
    patch: async (path, data) => read(await request.patch(path, { headers, data })),
    put: async (path, data) => read(await request.put(path, { headers, data })),
  };
}

/** Signs in through the API (company step, then token) as a demo account or another of the demo company. */
export async function apiSignIn(request: APIRequestContext, role: Role, email: string = DEMO.accounts[role]): Promise<ApiSession> {
  const company = await request.post('/api/verify-company-password/', { data: { company_name: DEMO.companyName, password: DEMO.companyPassword } });
  const { company_id } = (await company.json()) as { company_id: number };
  const tokens = await request.post('/api/token/', { data: { email, password: DEMO.password, role, company_id } });
  expect(tokens.ok()).toBeTruthy();
  return session(request, ((await tokens.json()) as { access: string }).access);
}

/** The API as the person signed in on this page, with the token the page stored. */
export async function pageSession(page: Page): Promise<ApiSession> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  return session(page.request, token!);
}

/** A calendar date `days` from today, as date inputs and the API carry it. */
export function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

interface Named {
  id: number;
  name: string;
}
export interface ApiSubtask extends Named {
  status: string;
  priority: string;
  assigned_to: { id: number; email: string } | null;
}
export interface ApiMajorTask extends Named {
  subtasks: ApiSubtask[];
}
export interface ApiProject extends Named {
  status: string;
  major_tasks: ApiMajorTask[];
}
export interface ApiUser {
  id: number;
  email: string;
  role: string;
}

export const findByName = <T extends Named>(items: T[], name: string): T => {
  const found = items.find((item) => item.name === name);
  expect(found, `${name} is listed`).toBeTruthy();
  return found!;
};

export async function userId(api: ApiSession, email: string): Promise<number> {
  const users = await api.get<ApiUser[]>('/api/users/');
  return users.find((user) => user.email === email)!.id;
}

/** One subtask to hand out: its title, who takes it (an e-mail), due so many days from today, and its priority. */
export interface WorkItem {
  name: string;
  assignee: string;
  dueInDays: number;
  priority?: 'low' | 'medium' | 'high';
}

/**
 * As `manager`, a major task named `majorTask` in the demo's Riverside Apartments with these subtasks,
 * as the Create Task screen makes it. Answers each subtask's id by its title.
 */
export async function assignWork(manager: ApiSession, majorTask: string, subtasks: WorkItem[]): Promise<Record<string, number>> {
  const projects = await manager.get<ApiProject[]>('/api/projects/?search=Riverside');
  const users = await manager.get<ApiUser[]>('/api/users/');
  const created = await manager.post<ApiMajorTask>('/api/major-tasks/', {
    project_id: findByName(projects, 'Riverside Apartments').id,
    name: majorTask,
    description: '',
    subtasks: subtasks.map((item) => ({
      name: item.name,
      assigned_to_id: users.find((user) => user.email === item.assignee)!.id,
      due_date: dayFromToday(item.dueInDays),
      priority: item.priority ?? 'medium',
    })),
  });
  return Object.fromEntries(created.subtasks.map((subtask) => [subtask.name, subtask.id]));
}
