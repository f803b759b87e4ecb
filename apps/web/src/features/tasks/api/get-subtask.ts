import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityEntry, Subtask, SubtaskPhoto } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** One subtask, as the drawer shows it. */
export const getSubtaskQueryOptions = (id: number) => queryOptions({ queryKey: [...queryRoots.subtasks, 'one', id], queryFn: () => api<Subtask>(`/api/subtasks/${id}/`) });
export const useSubtask = (id: number) => useQuery(getSubtaskQueryOptions(id));

/** A subtask's history, oldest first. */
export const getSubtaskActivityQueryOptions = (id: number) => queryOptions({ queryKey: [...queryRoots.activity, id], queryFn: () => api<ActivityEntry[]>(`/api/subtasks/${id}/activity/`) });
export const useSubtaskActivity = (id: number) => useQuery(getSubtaskActivityQueryOptions(id));

/** The photos on a page of subtasks, in one request (none asked for: none fetched). */
export const usePhotosOf = (subtaskIds: number[]) =>
  useQuery({
    queryKey: [...queryRoots.photos, subtaskIds],
    queryFn: () => api<SubtaskPhoto[]>('/api/attachments/', { query: { subtask_ids: subtaskIds.join(',') } }),
    enabled: subtaskIds.length > 0,
  });
