import { and, asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Project, ProjectStatus } from '@siteboard/shared';
import type { DbOrTx } from '../../db/client';
import { companies } from '../../db/schema/companies';
import { projects } from '../../db/schema/projects';
import { majorTasks } from '../../db/schema/tasks';
import { users } from '../../db/schema/users';

const managers = alias(users, 'managers');

export type ProjectFields = Omit<Project, 'major_tasks'>;

/** The company's projects (or one), with their manager and company, in one statement. */
export async function listProjectRows(db: DbOrTx, companyId: number, filter: { id?: number } = {}): Promise<ProjectFields[]> {
  const conditions = [eq(projects.companyId, companyId)];
  if (filter.id !== undefined) conditions.push(eq(projects.id, filter.id));
  const rows = await db
    .select({
      id: projects.id,
      name: projects.name,
      description: projects.description,
      startDate: projects.startDate,
      endDate: projects.endDate,
      status: projects.status,
      managerId: projects.managerId,
      managerEmail: managers.email,
      companyId: companies.id,
      companyName: companies.name,
    })
    .from(projects)
    .innerJoin(companies, eq(companies.id, projects.companyId))
    .leftJoin(managers, eq(managers.id, projects.managerId))
    .where(and(...conditions))
    .orderBy(asc(projects.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    start_date: row.startDate,
    end_date: row.endDate,
    status: row.status,
    manager: row.managerId !== null && row.managerEmail !== null ? { id: row.managerId, email: row.managerEmail } : null,
    company: { id: row.companyId, name: row.companyName },
  }));
}

/** The ids of the company's major tasks (or one project's), for the project shape's `major_tasks`. */
export function listMajorTaskIds(db: DbOrTx, companyId: number, filter: { projectId?: number } = {}) {
  const conditions = [eq(majorTasks.companyId, companyId)];
  if (filter.projectId !== undefined) conditions.push(eq(majorTasks.projectId, filter.projectId));
  return db
    .select({ id: majorTasks.id, projectId: majorTasks.projectId })
    .from(majorTasks)
    .where(and(...conditions))
    .orderBy(asc(majorTasks.id));
}

/** The project's current dates, locked until the transaction ends so a merged check cannot go stale. */
export async function lockProjectForUpdate(tx: DbOrTx, companyId: number, projectId: number) {
  const [row] = await tx
    .select({ id: projects.id, startDate: projects.startDate, endDate: projects.endDate })
    .from(projects)
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)))
    .for('update');
  return row;
}

export interface ProjectValues {
  name: string;
  description: string;
  startDate: string;
  endDate: string;
  status: ProjectStatus;
  managerId: number;
}

export async function insertProject(db: DbOrTx, companyId: number, values: ProjectValues) {
  const [row] = await db
    .insert(projects)
    .values({ ...values, companyId })
    .returning({ id: projects.id });
  return row!;
}

export async function updateProject(tx: DbOrTx, companyId: number, projectId: number, values: Partial<ProjectValues>) {
  await tx
    .update(projects)
    .set(values)
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)));
}

/** Its major tasks and their subtasks go with it (foreign key cascade). Answers whether a row was deleted. */
export async function deleteProject(db: DbOrTx, companyId: number, projectId: number): Promise<boolean> {
  const rows = await db
    .delete(projects)
    .where(and(eq(projects.companyId, companyId), eq(projects.id, projectId)))
    .returning({ id: projects.id });
  return rows.length > 0;
}
