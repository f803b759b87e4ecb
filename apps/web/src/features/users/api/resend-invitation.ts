import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { getInvitationsQueryOptions } from './get-invitations';

/** Mails a new link, valid 72 hours again; the old link stops working. */
export const resendInvitation = (id: number) => api<void>(`/api/invitations/${id}/resend/`, { method: 'POST' });

export const useResendInvitation = () => {
  const queryClient = useQueryClient();
  // The expiry moved: the list shows the new one.
  return useMutation({ mutationFn: resendInvitation, onSettled: () => queryClient.invalidateQueries({ queryKey: getInvitationsQueryOptions().queryKey }) });
};
