import type { Project, UpdateProjectInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { useListMutation } from '../../../lib/list-mutation';
import { projectsQueryKey } from './get-projects';

export const updateProject = ({ id, input }: { id: number; input: UpdateProjectInput }) => api<Project>(`/api/projects/${id}/`, { method: 'PATCH', body: input });

export const useUpdateProject = () => useListMutation(updateProject, projectsQueryKey);
