import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MajorTask } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** A project's major tasks with their subtasks: what a manager may pin on its sheets. */
export const getProjectSubtasksQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: [...queryRoots.subtasks, 'project-for-pins', projectId],
    queryFn: async () => (await api<{ major_tasks?: MajorTask[] }>(`/api/projects/${projectId}/`, { query: { expand: 'major_tasks' } })).major_tasks ?? [],
  });

export const useProjectSubtasks = (projectId: number, enabled: boolean) => useQuery({ ...getProjectSubtasksQueryOptions(projectId), enabled });
