import { t } from '@siteboard/shared';
import { PROJECT_STATUS_LABEL, personName } from '../../lib/labels';
import type { SheetColumn } from '../../lib/xlsx';
import type { ProjectExportRow } from './projects.queries';

/** The columns of a projects workbook, as the CSV has them, for people: the manager by name, the status in words, real dates. */
export const PROJECT_SHEET_COLUMNS: SheetColumn<ProjectExportRow>[] = [
  { id: 'id', kind: 'number', value: (row) => row.id },
  { id: 'name', value: (row) => row.name },
  { id: 'description', value: (row) => row.description },
  { id: 'startDate', kind: 'date', value: (row) => row.startDate },
  { id: 'endDate', kind: 'date', value: (row) => row.endDate },
  { id: 'manager', value: (row) => (row.manager === null ? null : personName({ fullName: row.managerName, email: row.manager })) },
  { id: 'status', value: (row, reader) => t(reader.language, PROJECT_STATUS_LABEL[row.status]) },
];
