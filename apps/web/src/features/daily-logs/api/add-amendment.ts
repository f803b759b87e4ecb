import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Amendment, AmendmentInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { dailyLogPath, getDailyLogQueryOptions } from './get-daily-log';

/** A correction of a signed log, kept beside it. */
export const addAmendment = ({ projectId, date, input }: { projectId: number; date: string; input: AmendmentInput }) =>
  api<Amendment>(`${dailyLogPath(projectId, date)}amendments/`, { method: 'POST', body: input });

export const useAddAmendment = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addAmendment, onSuccess: (_, { projectId, date }) => queryClient.invalidateQueries({ queryKey: getDailyLogQueryOptions(projectId, date).queryKey }) });
};
