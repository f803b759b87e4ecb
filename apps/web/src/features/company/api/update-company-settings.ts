import type { CompanySettings, UpdateCompanySettingsInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { useReplacingMutation } from '../../../lib/list-mutation';
import { getCompanySettingsQueryOptions } from '../../../lib/company-settings';

/** Only the fields that changed are sent. */
export const updateCompanySettings = (input: UpdateCompanySettingsInput) => api<CompanySettings>('/api/company/', { method: 'PATCH', body: input });

export function useUpdateCompanySettings() {
  return useReplacingMutation(updateCompanySettings, getCompanySettingsQueryOptions().queryKey);
}
