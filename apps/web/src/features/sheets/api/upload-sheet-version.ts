import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Sheet } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** A new version of a sheet: its pins move to it at the same relative place. */
export function uploadSheetVersion({ sheetId, file }: { sheetId: number; file: File }) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api<Sheet>(`/api/sheets/${sheetId}/versions/`, { method: 'POST', body: form });
}

export const useUploadSheetVersion = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadSheetVersion,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryRoots.sheets }), queryClient.invalidateQueries({ queryKey: queryRoots.subtasks })]),
  });
};
