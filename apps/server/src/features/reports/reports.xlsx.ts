import { t, type AppraisalItem } from '@siteboard/shared';
import type { CsvColumnId } from '../../lib/csv-headers';
import { ROLE_LABEL, SUBTASK_STATUS_LABEL, YES_NO_LABEL, personName } from '../../lib/labels';
import type { SheetColumn } from '../../lib/xlsx';
import { APPRAISAL_FIGURES } from './reports.csv';
import type { ReportSubtaskRow } from './reports.queries';

/** The person's role in words, then the report's figures as numbers, read from the report item the CSV prints them from (empty where the report shows N/A). */
const FIGURE_SHEET_COLUMNS: SheetColumn<AppraisalItem>[] = [
  { id: 'role', value: (item, reader) => t(reader.language, ROLE_LABEL[item.role]) },
  ...Object.entries(APPRAISAL_FIGURES).map(([id, field]): SheetColumn<AppraisalItem> => ({ id: id as CsvColumnId, kind: 'number', value: (item) => item[field] })),
];

/** The columns of the appraisals' workbook: one person a row, by name, their role in words, the figures as numbers. */
export const APPRAISAL_SHEET_COLUMNS: SheetColumn<AppraisalItem>[] = [
  { id: 'person', value: (item) => personName({ fullName: item.full_name, email: item.name }) },
  { id: 'code', value: (item) => item.code },
  ...FIGURE_SHEET_COLUMNS,
];

/**
 * The columns of one person's report as a workbook: its subtask table, each row naming the person
 * (work closed unfinished says so), then the report's figures, as the CSV has them after its
 * subtask columns.
 */
export const reportSubtaskSheetColumns = (item: AppraisalItem): SheetColumn<ReportSubtaskRow>[] => [
  { id: 'person', value: () => personName({ fullName: item.full_name, email: item.name }) },
  { id: 'code', value: () => item.code },
  { id: 'project', value: (row) => row.project },
  { id: 'majorTask', value: (row) => row.majorTask },
  { id: 'subtaskTitle', value: (row) => row.subtask },
  { id: 'dueDate', kind: 'date', value: (row) => row.dueDate },
  { id: 'status', value: (row, reader) => t(reader.language, row.closedUnfinished ? 'Closed unfinished|status' : SUBTASK_STATUS_LABEL[row.status]) },
  { id: 'overdue', value: (row, reader) => t(reader.language, YES_NO_LABEL(row.overdue)) },
  ...FIGURE_SHEET_COLUMNS.map((column): SheetColumn<ReportSubtaskRow> => ({ ...column, value: (_row, reader) => column.value(item, reader) })),
];
