import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Invitation } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** Invitations not yet accepted or revoked, oldest first. */
export const getInvitations = () => api<Invitation[]>('/api/invitations/');

export const getInvitationsQueryOptions = () => queryOptions({ queryKey: ['invitations'], queryFn: getInvitations });

export const useInvitations = () => useQuery(getInvitationsQueryOptions());
