import { fieldColumns } from '../../lib/csv';
import type { SubtaskExportRow } from './tasks.queries';

/** The columns of a subtasks export: the task tables' columns first, then the rest of a subtask. */
export const SUBTASK_CSV_COLUMNS = fieldColumns<SubtaskExportRow>({
  id: 'id', project: 'project', majorTask: 'majorTask', subtaskTitle: 'name', assignee: 'assignee', assigneeName: 'assigneeName', dueDate: 'dueDate', status: 'status',
  priority: 'priority', description: 'description', assignedBy: 'assignedBy', assignedByName: 'assignedByName', createdAt: 'createdAt', submittedAt: 'submittedAt', completedAt: 'completedAt',
});
