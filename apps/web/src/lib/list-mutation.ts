import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/** A write after which, done or refused, the list under `listKey` loads afresh: the screen shows what the server holds. */
export function useListMutation<Result, Variables>(mutationFn: (variables: Variables) => Promise<Result>, listKey: QueryKey) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }) });
}
