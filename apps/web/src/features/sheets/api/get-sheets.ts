import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Sheet } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** The latest version of each of a project's sheets; polled while any still renders. */
export const getSheetsQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: [...queryRoots.sheets, 'project', projectId],
    queryFn: () => api<Sheet[]>(`/api/projects/${projectId}/sheets/`),
    refetchInterval: (query) => (query.state.data?.some((sheet) => sheet.status === 'processing') ? 2000 : false),
  });

export const useSheets = (projectId: number | null) => useQuery({ ...getSheetsQueryOptions(projectId ?? 0), enabled: projectId !== null });
