import type { SubtaskStatus } from '@siteboard/shared';
import type { Db } from '../../platform';
import { subtasks } from '../../schema/tasks';
import { insertMajorTask, insertProject } from '../../test/work-factories';

/** The calendar date in a zone, worked out with Intl, independently of the server's SQL. */
export function dateIn(timeZone: string, instant = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(instant);
}

export function shiftDays(date: string, days: number): string {
  const shifted = new Date(`${date}T00:00:00Z`);
  shifted.setUTCDate(shifted.getUTCDate() + days);
  return shifted.toISOString().slice(0, 10);
}

export interface PlannedSubtask {
  status: SubtaskStatus;
  dueDate: string | null;
  name?: string;
}

/** One project with one major task holding the given subtasks, all assigned to one person: three statements. */
export async function assignSubtasks(db: Db, companyId: number, assignedToId: number, planned: PlannedSubtask[], names: { project?: string; majorTask?: string } = {}) {
  const project = await insertProject(db, companyId, { name: names.project });
  const majorTask = await insertMajorTask(db, companyId, project.id, { name: names.majorTask });
  if (planned.length === 0) return;
  await db.insert(subtasks).values(
    planned.map((subtask, index) => ({
      companyId,
      majorTaskId: majorTask.id,
      name: subtask.name ?? `Subtask ${index + 1}`,
      assignedToId,
      dueDate: subtask.dueDate,
      status: subtask.status,
    })),
  );
}

/**
 * The reference person's subtasks, dated around `today` (the company's date): with no range
 * 8 tasks — 3 completed, 3 ongoing, 2 pending approval, 2 of them overdue (38%).
 */
export function referenceSubtasks(today: string): PlannedSubtask[] {
  return [
    { status: 'completed', dueDate: shiftDays(today, -10), name: 'Completed long ago' },
    { status: 'completed', dueDate: shiftDays(today, -3), name: 'Completed three days ago' },
    { status: 'completed', dueDate: shiftDays(today, 5), name: 'Completed early' },
    { status: 'ongoing', dueDate: shiftDays(today, -1), name: 'Ongoing, due yesterday' },
    { status: 'ongoing', dueDate: today, name: 'Ongoing, due today' },
    { status: 'pending_approval', dueDate: shiftDays(today, -2), name: 'Pending, due two days ago' },
    { status: 'pending_approval', dueDate: shiftDays(today, 1), name: 'Pending, due tomorrow' },
    { status: 'ongoing', dueDate: null, name: 'Ongoing, undated' },
  ];
}
