import type { SubtaskStatus } from '@siteboard/shared';
import { insertMajorTask, insertProject, insertSubtask } from '../../../server/src/test/work-factories';
import type { ApiServer } from './api-server';

/**
 * A crew (`createCrew`) with work: the manager's project "Harbour Wall", its major task "Footings",
 * and these subtasks, each assigned by the manager to the team member.
 */
export async function createCrewWithWork(server: ApiServer, subtasks: { name: string; status: SubtaskStatus }[]) {
  const crew = await server.createCrew();
  const { db } = server.database;
  const project = await insertProject(db, crew.company.id, { managerId: crew.manager.id, name: 'Harbour Wall' });
  const majorTask = await insertMajorTask(db, crew.company.id, project.id, { name: 'Footings' });
  for (const subtask of subtasks) {
    await insertSubtask(db, { companyId: crew.company.id, majorTaskId: majorTask.id, assignedToId: crew.member.id, assignedById: crew.manager.id, ...subtask });
  }
  return crew;
}
