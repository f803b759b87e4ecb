import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CompanySettings, UpdateCompanySettingsInput } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { getCompanySettingsQueryOptions } from '../../../lib/company-settings';

/** Only the fields that changed are sent. */
export const updateCompanySettings = (input: UpdateCompanySettingsInput) => api<CompanySettings>('/api/company/', { method: 'PATCH', body: input });

export function useUpdateCompanySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCompanySettings,
    onSuccess: (settings) => queryClient.setQueryData(getCompanySettingsQueryOptions().queryKey, settings),
  });
}
