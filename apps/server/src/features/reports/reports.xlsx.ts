import { t, type AppraisalItem } from '@siteboard/shared';
import { ROLE_LABEL, SUBTASK_STATUS_LABEL, YES_NO_LABEL, personName } from '../../lib/labels';
import type { SheetColumn } from '../../lib/xlsx';
import type { ReportSubtaskRow } from './reports.queries';

/** The columns of the appraisals' workbook: one person a row, by name, their role in words, the counts as numbers. */
export const APPRAISAL_SHEET_COLUMNS: SheetColumn<AppraisalItem>[] = [
  { id: 'person', value: (item) => personName({ fullName: item.full_name, email: item.name }) },
  { id: 'code', value: (item) => item.code },
  { id: 'role', value: (item, reader) => t(reader.language, ROLE_LABEL[item.role]) },
  { id: 'efficiencyScore', kind: 'number', value: (item) => item.efficiency_score },
  { id: 'totalTasks', kind: 'number', value: (item) => item.total_tasks },
  { id: 'completedTasks', kind: 'number', value: (item) => item.completed_tasks },
  { id: 'ongoingTasks', kind: 'number', value: (item) => item.ongoing_tasks },
  { id: 'pendingApprovalTasks', kind: 'number', value: (item) => item.pending_approval_tasks },
  { id: 'overdueTasks', kind: 'number', value: (item) => item.overdue_tasks },
];

/** The columns of one person's report as a workbook: its subtask table, each row naming the person; work closed unfinished says so. */
export const reportSubtaskSheetColumns = (person: { email: string; fullName: string | null; code: string }): SheetColumn<ReportSubtaskRow>[] => [
  { id: 'person', value: () => personName(person) },
  { id: 'code', value: () => person.code },
  { id: 'project', value: (row) => row.project },
  { id: 'majorTask', value: (row) => row.majorTask },
  { id: 'subtaskTitle', value: (row) => row.subtask },
  { id: 'dueDate', kind: 'date', value: (row) => row.dueDate },
  { id: 'status', value: (row, reader) => t(reader.language, row.closedUnfinished ? 'Closed unfinished|status' : SUBTASK_STATUS_LABEL[row.status]) },
  { id: 'overdue', value: (row, reader) => t(reader.language, YES_NO_LABEL(row.overdue)) },
];
