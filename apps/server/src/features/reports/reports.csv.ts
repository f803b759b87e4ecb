import type { AppraisalItem } from '@siteboard/shared';
import { fieldColumns, type CsvColumn } from '../../lib/csv';
import type { CsvColumnId } from '../../lib/csv-headers';
import type { ReportSubtaskRow } from './reports.queries';

/**
 * The report's figures, each column's field of the report item (rates and the median null where the
 * report shows N/A): the CSV and the workbook (reports.xlsx.ts) both print them from here, so the
 * two files carry the same figures under the same headers.
 */
export const APPRAISAL_FIGURES = {
  efficiencyScore: 'efficiency_score', totalTasks: 'total_tasks', completedTasks: 'completed_tasks', ongoingTasks: 'ongoing_tasks',
  pendingApprovalTasks: 'pending_approval_tasks', overdueTasks: 'overdue_tasks', closedUnfinishedTasks: 'closed_unfinished_tasks',
  onTimeCompletionRate: 'on_time_completion_rate', firstPassApprovalRate: 'first_pass_approval_rate', declinesReceived: 'declines_received', medianDecisionHours: 'median_decision_hours',
} as const satisfies Partial<Record<CsvColumnId, keyof AppraisalItem>>;

/** The columns of the appraisal list: one person a row, with every figure the report shows (rates and the median empty where it shows N/A). */
export const APPRAISAL_CSV_COLUMNS = fieldColumns<AppraisalItem>({ person: 'name', personName: 'full_name', code: 'code', role: 'role', ...APPRAISAL_FIGURES });

const PERSON_COLUMNS = new Set(['person', 'personName', 'code']);

/**
 * The columns of one person's report: its subtask table, each row naming the person, so a file read
 * alone says whose it is, then the report's figures as the team's file has them (after the subtask's
 * columns, which keep their places).
 */
export const reportSubtaskCsvColumns = (item: AppraisalItem): CsvColumn<ReportSubtaskRow>[] => {
  const personal = APPRAISAL_CSV_COLUMNS.map((column): CsvColumn<ReportSubtaskRow> => ({ id: column.id, value: () => column.value(item) }));
  return [
    ...personal.filter((column) => PERSON_COLUMNS.has(column.id)),
    ...fieldColumns<ReportSubtaskRow>({ project: 'project', majorTask: 'majorTask', subtaskTitle: 'subtask', dueDate: 'dueDate', status: 'status', overdue: 'overdue' }),
    ...personal.filter((column) => !PERSON_COLUMNS.has(column.id)),
  ];
};
