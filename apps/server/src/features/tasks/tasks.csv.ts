import type { CsvColumn } from '../../lib/csv';
import type { SubtaskExportRow } from './tasks.queries';

/** The columns of a subtasks export: the task tables' columns first, then the rest of a subtask. */
export const SUBTASK_CSV_COLUMNS: CsvColumn<SubtaskExportRow>[] = [
  { id: 'id', value: (row) => row.id },
  { id: 'project', value: (row) => row.project },
  { id: 'majorTask', value: (row) => row.majorTask },
  { id: 'subtaskTitle', value: (row) => row.name },
  { id: 'assignee', value: (row) => row.assignee },
  { id: 'dueDate', value: (row) => row.dueDate },
  { id: 'status', value: (row) => row.status },
  { id: 'priority', value: (row) => row.priority },
  { id: 'description', value: (row) => row.description },
  { id: 'assignedBy', value: (row) => row.assignedBy },
  { id: 'createdAt', value: (row) => row.createdAt },
  { id: 'submittedAt', value: (row) => row.submittedAt },
  { id: 'completedAt', value: (row) => row.completedAt },
];
