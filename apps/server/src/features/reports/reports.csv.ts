import type { AppraisalItem } from '@siteboard/shared';
import { fieldColumns, type CsvColumn } from '../../lib/csv';
import type { ReportSubtaskRow } from './reports.queries';

/** The columns of the appraisal list: one person a row, as the report item has them. */
export const APPRAISAL_CSV_COLUMNS = fieldColumns<AppraisalItem>({
  person: 'name', personName: 'full_name', code: 'code', role: 'role', efficiencyScore: 'efficiency_score', totalTasks: 'total_tasks', completedTasks: 'completed_tasks',
  ongoingTasks: 'ongoing_tasks', pendingApprovalTasks: 'pending_approval_tasks', overdueTasks: 'overdue_tasks',
});

/** The columns of one person's report: its subtask table, each row naming the person, so a file read alone says whose it is. */
export const reportSubtaskCsvColumns = (person: { email: string; fullName: string | null; code: string }): CsvColumn<ReportSubtaskRow>[] => [
  { id: 'person', value: () => person.email },
  { id: 'personName', value: () => person.fullName },
  { id: 'code', value: () => person.code },
  ...fieldColumns<ReportSubtaskRow>({ project: 'project', majorTask: 'majorTask', subtaskTitle: 'subtask', dueDate: 'dueDate', status: 'status', overdue: 'overdue' }),
];
