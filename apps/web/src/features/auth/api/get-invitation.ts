import { useQuery } from '@tanstack/react-query';
import type { InvitationPreview } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** What an invitation link is for (company, e-mail, role), before the person sets their password. */
export const getInvitation = (token: string) => api<InvitationPreview>(`/api/invitations/accept/?token=${encodeURIComponent(token)}`, { auth: false });

export const useInvitation = (token: string) => useQuery({ queryKey: ['invitation', token], queryFn: () => getInvitation(token), retry: false, enabled: token !== '' });
