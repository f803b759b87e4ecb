import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Project, UpdateProjectInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { projectsQueryKey } from './get-projects';

export const updateProject = ({ id, input }: { id: number; input: UpdateProjectInput }) => api<Project>(`/api/projects/${id}/`, { method: 'PATCH', body: input });

export const useUpdateProject = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProject,
    onSettled: () => queryClient.invalidateQueries({ queryKey: projectsQueryKey }),
  });
};
