import { t, type Language, type MessageKey } from '@siteboard/shared';

/**
 * The header of every CSV column, by column id: the one place their words live, as keys of the
 * shared catalog, so a file is headed in its reader's language (a column id is never shown).
 */
const CSV_HEADERS = {
  id: 'ID',
  name: 'Name',
  description: 'Description',
  startDate: 'Start Date|project',
  endDate: 'End Date|project',
  status: 'Status',
  manager: 'Manager',
  managerName: 'Manager Name',
  project: 'Project',
  majorTask: 'Major Task',
  subtaskTitle: 'Subtask Title',
  assignee: 'Assignee',
  assigneeName: 'Assignee Name',
  assignedBy: 'Assigned By',
  assignedByName: 'Assigned By Name',
  dueDate: 'Due Date',
  priority: 'Priority',
  createdAt: 'Created At',
  submittedAt: 'Sent for Approval At',
  completedAt: 'Completed At',
  overdue: 'Overdue',
  teamMember: 'Team Member',
  teamMemberName: 'Team Member Name',
  ongoingTaskNames: 'Ongoing Task Names',
  person: 'Person',
  personName: 'Person Name',
  code: 'Code',
  role: 'Role',
  efficiencyScore: 'Efficiency Score (%)',
  totalTasks: 'Total Tasks',
  completedTasks: 'Completed Tasks',
  ongoingTasks: 'Ongoing Tasks',
  pendingApprovalTasks: 'Pending Approval Tasks',
  overdueTasks: 'Overdue Tasks',
  date: 'Date',
  signedBy: 'Signed by',
  signedByName: 'Signed by (name)',
  signedAt: 'Signed at',
  section: 'Section',
  trade: 'Trade',
  company: 'Company',
  headcount: 'Head count',
  hours: 'Hours',
  manHours: 'Man-hours',
  hoursLost: 'Hours lost',
  temperature: 'Temperature (°C)',
  wind: 'Wind',
  precipitation: 'Precipitation',
  workStopped: 'Work stopped',
} as const satisfies Record<string, MessageKey>;

export type CsvColumnId = keyof typeof CSV_HEADERS;

export const csvHeader = (id: CsvColumnId, language: Language): string => t(language, CSV_HEADERS[id]);
