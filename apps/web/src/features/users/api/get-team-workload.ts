import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamWorkloadItem } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';


/** The manager's team, least loaded first, each with the names of their ongoing subtasks. */
export const getTeamWorkload = () => api<TeamWorkloadItem[]>('/api/team-workload/');

export const getTeamWorkloadQueryOptions = () => queryOptions({ queryKey: queryRoots.teamWorkload, queryFn: getTeamWorkload });

export const useTeamWorkload = () => useQuery(getTeamWorkloadQueryOptions());
