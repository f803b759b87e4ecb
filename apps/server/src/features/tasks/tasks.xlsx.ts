import { t } from '@siteboard/shared';
import { PRIORITY_LABEL, SUBTASK_STATUS_LABEL, personName } from '../../lib/labels';
import type { SheetColumn } from '../../lib/xlsx';
import type { SubtaskExportRow } from './tasks.queries';

const nameOf = (email: string | null, fullName: string | null) => (email === null ? null : personName({ fullName, email }));

/** The columns of a subtasks workbook, as the CSV has them, for people: names, words for codes, dates and times as date cells. */
export const SUBTASK_SHEET_COLUMNS: SheetColumn<SubtaskExportRow>[] = [
  { id: 'id', kind: 'number', value: (row) => row.id },
  { id: 'project', value: (row) => row.project },
  { id: 'majorTask', value: (row) => row.majorTask },
  { id: 'subtaskTitle', value: (row) => row.name },
  { id: 'assignee', value: (row) => nameOf(row.assignee, row.assigneeName) },
  { id: 'dueDate', kind: 'date', value: (row) => row.dueDate },
  { id: 'status', value: (row, reader) => t(reader.language, SUBTASK_STATUS_LABEL[row.status]) },
  { id: 'priority', value: (row, reader) => t(reader.language, PRIORITY_LABEL[row.priority]) },
  { id: 'description', value: (row) => row.description },
  { id: 'assignedBy', value: (row) => nameOf(row.assignedBy, row.assignedByName) },
  { id: 'createdAt', kind: 'time', value: (row) => row.createdAt },
  { id: 'submittedAt', kind: 'time', value: (row) => row.submittedAt },
  { id: 'completedAt', kind: 'time', value: (row) => row.completedAt },
];
