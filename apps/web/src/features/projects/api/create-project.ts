import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateProjectInput, Project } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { getProjectsQueryOptions } from './get-projects';

export const createProject = (input: CreateProjectInput) => api<Project>('/api/projects/', { method: 'POST', body: input });

/** Invalidating `['projects']` refreshes the expanded list too: its key starts the same. */
export const useCreateProject = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProject,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getProjectsQueryOptions().queryKey }),
  });
};
