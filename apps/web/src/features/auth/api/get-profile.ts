import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Profile } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

/** The signed-in user with their language and time zones (their own, and the one that applies). */
export const getProfile = () => api<Profile>('/api/profile/');

export const getProfileQueryOptions = () => queryOptions({ queryKey: ['profile'], queryFn: getProfile });

export const useProfile = ({ enabled = true }: { enabled?: boolean } = {}) => useQuery({ ...getProfileQueryOptions(), enabled });
