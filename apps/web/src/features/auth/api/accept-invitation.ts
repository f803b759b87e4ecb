import { useMutation } from '@tanstack/react-query';
import type { AcceptInvitationAnswer, AcceptInvitationInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export const acceptInvitation = (input: AcceptInvitationInput) => api<AcceptInvitationAnswer>('/api/invitations/accept/', { method: 'POST', auth: false, body: input });

export const useAcceptInvitation = () => useMutation({ mutationFn: acceptInvitation });
