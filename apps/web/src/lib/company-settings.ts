import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CompanySettings } from '@siteboard/shared';
import { api } from './api-client';

/** The signed-in user's own company: name, time zone, new users' language (its settings screen and everyone's time-zone dialog). */
export const getCompanySettings = () => api<CompanySettings>('/api/company/');

export const getCompanySettingsQueryOptions = () => queryOptions({ queryKey: ['company-settings'], queryFn: getCompanySettings });

export const useCompanySettings = () => useQuery(getCompanySettingsQueryOptions());
