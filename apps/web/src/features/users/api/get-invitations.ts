import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Invitation } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** Invitations not yet accepted or revoked, oldest first. */
export const getInvitations = () => api<Invitation[]>('/api/invitations/');

/**
 * While a mail waits in the outbox its row follows it (decision record 127): every 2 s until its
 * first attempt, every minute while the mail server puts it off (retries are minutes to an hour apart).
 */
export function deliveryPollMs(invitations: Invitation[] | undefined): number | false {
  const sending = (invitations ?? []).flatMap((invitation) => (invitation.delivery?.state === 'sending' ? [invitation.delivery] : []));
  if (sending.length === 0) return false;
  return sending.some((delivery) => delivery.error === null) ? 2000 : 60_000;
}

export const getInvitationsQueryOptions = () =>
  queryOptions({ queryKey: ['invitations'], queryFn: getInvitations, refetchInterval: (query) => deliveryPollMs(query.state.data) });

export const useInvitations = () => useQuery(getInvitationsQueryOptions());
