import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Sheet } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

export function renameSheet({ sheetId, name }: { sheetId: number; name: string }) {
  return api<Sheet>(`/api/sheets/${sheetId}/`, { method: 'PATCH', body: { name } });
}

export const useRenameSheet = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: renameSheet, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryRoots.sheets }) });
};
