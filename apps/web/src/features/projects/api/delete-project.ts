import { api } from '../../../lib/api-client';
import { useListMutation } from '../../../lib/list-mutation';
import { projectsQueryKey } from './get-projects';

export const deleteProject = (id: number) => api<void>(`/api/projects/${id}/`, { method: 'DELETE' });

export const useDeleteProject = () => useListMutation(deleteProject, projectsQueryKey);
