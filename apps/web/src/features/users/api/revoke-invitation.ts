import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { getInvitationsQueryOptions } from './get-invitations';

/** Revokes an invitation: its link stops working. */
export const revokeInvitation = (id: number) => api<void>(`/api/invitations/${id}/`, { method: 'DELETE' });

export const useRevokeInvitation = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeInvitation, onSettled: () => queryClient.invalidateQueries({ queryKey: getInvitationsQueryOptions().queryKey }) });
};
