import { fieldColumns } from '../../lib/csv';
import type { ProjectExportRow } from './projects.queries';

/** The columns of a projects export, as the admin's project table shows them. */
export const PROJECT_CSV_COLUMNS = fieldColumns<ProjectExportRow>({
  id: 'id', name: 'name', description: 'description', startDate: 'startDate', endDate: 'endDate', manager: 'manager', managerName: 'managerName', status: 'status',
});
