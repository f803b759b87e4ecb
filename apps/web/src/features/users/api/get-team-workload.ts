import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamWorkloadItem } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export const teamWorkloadQueryKey = ['team-workload'];

/** The manager's team, least loaded first, each with the names of their ongoing subtasks. */
export const getTeamWorkload = () => api<TeamWorkloadItem[]>('/api/team-workload/');

export const getTeamWorkloadQueryOptions = () => queryOptions({ queryKey: teamWorkloadQueryKey, queryFn: getTeamWorkload });

export const useTeamWorkload = () => useQuery(getTeamWorkloadQueryOptions());
