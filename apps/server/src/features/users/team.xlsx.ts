import type { TeamWorkloadItem } from '@siteboard/shared';
import { personName } from '../../lib/labels';
import type { SheetColumn } from '../../lib/xlsx';

/** The columns of the team workload's workbook: a team member by name, their number of ongoing subtasks, and the names, one a line. */
export const TEAM_WORKLOAD_SHEET_COLUMNS: SheetColumn<TeamWorkloadItem>[] = [
  { id: 'teamMember', value: (item) => personName({ fullName: item.full_name, email: item.email }) },
  { id: 'ongoingTasks', kind: 'number', value: (item) => item.task_count },
  { id: 'ongoingTaskNames', kind: 'lines', value: (item) => item.tasks.join('\n') },
];
