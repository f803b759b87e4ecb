import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CompanyListItem } from '@siteboard/shared';
import { api } from '../../../lib/api-client';

export const getCompanies = () => api<CompanyListItem[]>('/api/companies/', { auth: false });

export const getCompaniesQueryOptions = () => queryOptions({ queryKey: ['companies'], queryFn: getCompanies, staleTime: 60_000 });

export const useCompanies = () => useQuery(getCompaniesQueryOptions());
