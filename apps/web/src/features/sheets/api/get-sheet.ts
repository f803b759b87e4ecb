import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SheetDetail } from '@siteboard/shared';
import { api } from '../../../lib/api-client';
import { queryRoots } from '../../../lib/query-keys';

/** One sheet with where its tiles are and its versions; polled while it renders. */
export const getSheetQueryOptions = (sheetId: number) =>
  queryOptions({
    queryKey: [...queryRoots.sheets, 'sheet', sheetId],
    queryFn: () => api<SheetDetail>(`/api/sheets/${sheetId}/`),
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 2000 : false),
  });

export const useSheet = (sheetId: number | null) => useQuery({ ...getSheetQueryOptions(sheetId ?? 0), enabled: sheetId !== null });
