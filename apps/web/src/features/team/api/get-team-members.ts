import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamMember } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** A manager's own team (an admin gets the company's). */
export const getTeamMembers = () => api<TeamMember[]>('/api/team-members/');

export const getTeamMembersQueryOptions = () => queryOptions({ queryKey: ['team-members'], queryFn: getTeamMembers });

export const useTeamMembers = () => useQuery(getTeamMembersQueryOptions());
