import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateProjectInput, Project } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { projectsQueryKey } from './get-projects';

export const createProject = (input: CreateProjectInput) => api<Project>('/api/projects/', { method: 'POST', body: input });

export const useCreateProject = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: projectsQueryKey }),
  });
};
