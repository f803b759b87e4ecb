import { queryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ActivityEntry, Subtask, SubtaskPhoto } from '@siteboard/shared';
import { api, apiPage } from '../../../lib/api-client';
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

/**
 * A subtask's history, oldest first: its latest page, then each earlier page as it is asked for
 * (`fetchNextPage`, "Show earlier entries"); a long-running subtask's hundreds of entries are never
 * one download. `entries` joins the pages loaded, oldest first; `earlier` counts those not loaded.
 */
export function useSubtaskActivity(id: number) {
  const query = useInfiniteQuery({
    // 'pages': not the key the whole history was kept under before it came in pages (a phone's saved cache may still hold that shape).
    queryKey: [...queryRoots.activity, id, 'pages'],
    queryFn: ({ pageParam }) => apiPage<ActivityEntry>(`/api/subtasks/${id}/activity/`, pageParam === undefined ? {} : { query: { before: pageParam } }),
    initialPageParam: undefined as number | undefined,
    // The page before the oldest loaded: its first entry's id, while older ones remain.
    getNextPageParam: (page) => (page.total > page.items.length ? page.items[0]?.id : undefined),
    enabled: id > 0,
  });
  const pages = query.data?.pages;
  const entries = pages ? [...pages].reverse().flatMap((page) => page.items) : undefined;
  const oldest = pages?.at(-1);
  return { ...query, entries, earlier: oldest ? oldest.total - oldest.items.length : 0 };
}

/** The photos on a page of subtasks, in one request (none asked for: none fetched). */
export const usePhotosOf = (subtaskIds: number[]) =>
  useQuery({
    queryKey: [...queryRoots.photos, subtaskIds],
    queryFn: () => api<SubtaskPhoto[]>('/api/attachments/', { query: { subtask_ids: subtaskIds.join(',') } }),
    enabled: subtaskIds.length > 0,
  });
