import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { projectsQueryKey } from './get-projects';

export const deleteProject = (id: number) => api<void>(`/api/projects/${id}/`, { method: 'DELETE' });

export const useDeleteProject = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProject,
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectsQueryKey }),
  });
};
