import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateInvitationInput, Invitation } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { getInvitationsQueryOptions } from './get-invitations';

/** Mails the person a link to join (72 hours, single use); an address of an existing user is a 409. */
export const createInvitation = (input: CreateInvitationInput) => api<Invitation>('/api/invitations/', { method: 'POST', body: input });

export const useCreateInvitation = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createInvitation, onSettled: () => queryClient.invalidateQueries({ queryKey: getInvitationsQueryOptions().queryKey }) });
};
