import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** Deletes a sheet with all its versions; its subtasks are unpinned. */
export function deleteSheet(sheetId: number) {
  return api<null>(`/api/sheets/${sheetId}/`, { method: 'DELETE' });
}

export const useDeleteSheet = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSheet,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryRoots.sheets }), queryClient.invalidateQueries({ queryKey: queryRoots.subtasks })]),
  });
};
