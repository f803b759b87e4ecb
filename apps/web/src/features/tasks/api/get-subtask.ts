import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActivityEntry, Subtask, SubtaskPhoto } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { findCachedSubtask, queryRoots } from '../../../lib/query-keys';

/** One subtask, as the drawer shows it. */
export const getSubtaskQueryOptions = (id: number) => queryOptions({ queryKey: [...queryRoots.subtasks, 'one', id], queryFn: () => api<Subtask>(`/api/subtasks/${id}/`) });
/**
 * One subtask for the drawer. Until its own answer is here (or without a signal, when it cannot
 * come) the row a list already holds stands in, so the task opens at once from any list.
 */
export function useSubtask(id: number) {
  const queryClient = useQueryClient();
  return useQuery({ ...getSubtaskQueryOptions(id), enabled: id > 0, placeholderData: () => findCachedSubtask(queryClient, id) as Subtask | undefined });
}

/** A subtask's history, oldest first. */
export const getSubtaskActivityQueryOptions = (id: number) => queryOptions({ queryKey: [...queryRoots.activity, id], queryFn: () => api<ActivityEntry[]>(`/api/subtasks/${id}/activity/`) });
export const useSubtaskActivity = (id: number) => useQuery({ ...getSubtaskActivityQueryOptions(id), enabled: id > 0 });

/** The photos on a page of subtasks, in one request (none asked for: none fetched). */
export const usePhotosOf = (subtaskIds: number[]) =>
  useQuery({
    queryKey: [...queryRoots.photos, subtaskIds],
    queryFn: () => api<SubtaskPhoto[]>('/api/attachments/', { query: { subtask_ids: subtaskIds.join(',') } }),
    enabled: subtaskIds.length > 0,
  });
