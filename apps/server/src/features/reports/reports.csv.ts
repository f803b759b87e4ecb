import type { AppraisalItem } from '@siteboard/shared';
import type { CsvColumn } from '../../lib/csv';
import type { ReportSubtaskRow } from './reports.queries';

/** The columns of the appraisal list: one person a row, as the report item has them. */
export const APPRAISAL_CSV_COLUMNS: CsvColumn<AppraisalItem>[] = [
  { id: 'person', value: (item) => item.name },
  { id: 'code', value: (item) => item.code },
  { id: 'role', value: (item) => item.role },
  { id: 'efficiencyScore', value: (item) => item.efficiency_score },
  { id: 'totalTasks', value: (item) => item.total_tasks },
  { id: 'completedTasks', value: (item) => item.completed_tasks },
  { id: 'ongoingTasks', value: (item) => item.ongoing_tasks },
  { id: 'pendingApprovalTasks', value: (item) => item.pending_approval_tasks },
  { id: 'overdueTasks', value: (item) => item.overdue_tasks },
];

/** The columns of one person's report: its subtask table, each row naming the person, so a file read alone says whose it is. */
export const reportSubtaskCsvColumns = (person: { email: string; code: string }): CsvColumn<ReportSubtaskRow>[] => [
  { id: 'person', value: () => person.email },
  { id: 'code', value: () => person.code },
  { id: 'project', value: (row) => row.project },
  { id: 'majorTask', value: (row) => row.majorTask },
  { id: 'subtaskTitle', value: (row) => row.subtask },
  { id: 'dueDate', value: (row) => row.dueDate },
  { id: 'status', value: (row) => row.status },
  { id: 'overdue', value: (row) => row.overdue },
];
