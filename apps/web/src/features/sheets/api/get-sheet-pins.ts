import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
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

/** Draws a subtask's pin at a new place in the sheet's cached pins, until they are loaded again. */
export function movePinInCache(queryClient: QueryClient, sheetId: number, subtaskId: number, { x, y }: { x: number; y: number }) {
  queryClient.setQueryData(getSheetPinsQueryOptions(sheetId).queryKey, (pins) => pins?.map((shown) => (shown.subtask_id === subtaskId ? { ...shown, x, y } : shown)));
}
