import type { TeamWorkloadItem } from '@siteboard/shared';
import type { CsvColumn } from '../../lib/csv';

/** The columns of the team workload: a team member (e-mail, then name), how many ongoing subtasks they have, and their names, one a line in the cell. */
export const TEAM_WORKLOAD_CSV_COLUMNS: CsvColumn<TeamWorkloadItem>[] = [
  { id: 'teamMember', value: (item) => item.email },
  { id: 'teamMemberName', value: (item) => item.full_name },
  { id: 'ongoingTasks', value: (item) => item.task_count },
  { id: 'ongoingTaskNames', value: (item) => item.tasks.join('\n') },
];
