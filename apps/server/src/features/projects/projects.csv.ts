import type { CsvColumn } from '../../lib/csv';
import type { ProjectExportRow } from './projects.queries';

/** The columns of a projects export, as the admin's project table shows them. */
export const PROJECT_CSV_COLUMNS: CsvColumn<ProjectExportRow>[] = [
  { id: 'id', value: (row) => row.id },
  { id: 'name', value: (row) => row.name },
  { id: 'description', value: (row) => row.description },
  { id: 'startDate', value: (row) => row.startDate },
  { id: 'endDate', value: (row) => row.endDate },
  { id: 'manager', value: (row) => row.manager },
  { id: 'status', value: (row) => row.status },
];
