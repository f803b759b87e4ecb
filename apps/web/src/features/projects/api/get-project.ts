import { useQuery } from '@tanstack/react-query';
import type { ExpandedProject } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { projectsQueryKey } from './get-projects';

/** One project with its major tasks and their subtasks embedded. */
export const getExpandedProject = (id: number) => api<ExpandedProject>(`/api/projects/${id}/`, { query: { expand: 'major_tasks' } });

export const getExpandedProjectQueryOptions = (id: number) => ({ queryKey: [...projectsQueryKey, 'one', id], queryFn: () => getExpandedProject(id) });

export const useExpandedProject = (id: number) => useQuery(getExpandedProjectQueryOptions(id));
