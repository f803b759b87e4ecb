import type { CreateProjectInput, Project } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { useListMutation } from '../../../lib/list-mutation';
import { projectsQueryKey } from './get-projects';

export const createProject = (input: CreateProjectInput) => api<Project>('/api/projects/', { method: 'POST', body: input });

export const useCreateProject = () => useListMutation(createProject, projectsQueryKey);
