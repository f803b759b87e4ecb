import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/** A write after which, done or refused, the list under `listKey` loads afresh: the screen shows what the server holds. */
export function useListMutation<Result, Variables>(mutationFn: (variables: Variables) => Promise<Result>, listKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }) });
}

/**
 * A write whose answer is the new state of one record: it replaces what the query under
 * `queryKey` holds (`toCached` turns the answer into the cached value, e.g. null once a feed is off).
 */
export function useReplacingMutation<Result, Variables = void, Cached = Result>(
  mutationFn: (variables: Variables) => Promise<Result>,
  queryKey: QueryKey,
  toCached: (result: Result) => Cached = (result) => result as unknown as Cached,
) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: (result) => queryClient.setQueryData(queryKey, toCached(result)) });
}
