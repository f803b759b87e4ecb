import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SheetPin } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The subtasks pinned on a sheet, with their status; under the subtasks' root, so every subtask change reloads them. */
export const getSheetPinsQueryOptions = (sheetId: number) =>
  queryOptions({
    queryKey: [...queryRoots.subtasks, 'sheet-pins', sheetId],
    queryFn: () => api<SheetPin[]>(`/api/sheets/${sheetId}/pins/`),
  });

export const useSheetPins = (sheetId: number) => useQuery(getSheetPinsQueryOptions(sheetId));
