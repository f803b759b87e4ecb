import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Sheet } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** A drawing onto a project (multipart, field `file`): one sheet per PDF page, rendering in the background. */
export function uploadSheets({ projectId, file }: { projectId: number; file: File }) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api<Sheet[]>(`/api/projects/${projectId}/sheets/`, { method: 'POST', body: form });
}

export const useUploadSheets = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadSheets, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryRoots.sheets }) });
};
