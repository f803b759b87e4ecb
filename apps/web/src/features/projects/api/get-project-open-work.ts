import { useQuery } from '@tanstack/react-query';
import type { Subtask } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { projectsQueryKey } from './get-projects';

/** The most unfinished subtasks the completion dialog lists; its text says how many there are in all. */
export const OPEN_WORK_SHOWN = 50;

/** The project's unfinished subtasks (ongoing or pending approval): what completing it closes as unfinished. */
export const getProjectOpenWork = (id: number) => api<Subtask[]>(`/api/projects/${id}/open-work/`, { query: { limit: OPEN_WORK_SHOWN } });

export const getProjectOpenWorkQueryOptions = (id: number) => ({ queryKey: [...projectsQueryKey, 'open-work', id], queryFn: () => getProjectOpenWork(id) });

export const useProjectOpenWork = (id: number) => useQuery(getProjectOpenWorkQueryOptions(id));
